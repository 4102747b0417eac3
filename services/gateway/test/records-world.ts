import { randomUUID } from 'node:crypto';
import { recordImportStreamName } from '@eelarve/domain';
import { eventMetadata } from '@eelarve/gateway/infrastructure/commands';
import { DEFAULT_RESOURCE_STATUSES } from '@eelarve/shared';
import { accountsFixture, PASSWORD } from '@eelarve/testing/accounts';
import { schemesFixture } from '@eelarve/testing/schemes';
import { startTestServer, type TestServer } from '@eelarve/testing/server';
import { expect } from 'vitest';
import { type Client, login } from './helpers';

/**
 * What the records API tests start from: an organisation using statuses, a document (2026, one
 * year: 12 months) with a master classifier `tegevusala` (01, 02; 0 unselectable), a required
 * `konto` (4500, 5500) and an optional `allikas` (A, B); a scheme on `tegevusala` with two
 * sub-budgets (01: Haridus, 02: Kultuur); budgets made through the API; and the callers.
 */
export const [IN_PREPARATION, , APPROVED] = DEFAULT_RESOURCE_STATUSES.map((status) => status.id) as [string, string, string, string];

export interface Member {
  client: Client;
  userId: string;
  occupationId: string;
}

export interface RecordsWorld {
  server: TestServer;
  admin: Client;
  organizationId: string;
  documentId: string;
  kind: string;
  account: string;
  source: string;
  schemeId: string;
  education: string;
  culture: string;
  budget: (statusId?: string) => Promise<string>;
  /** More members like `editor`, each signed in. */
  editors: (count: number) => Promise<Member[]>;
  /** DATA_VIEW, update on the organisation. */
  editor: Member;
  /** DATA_VIEW, update on the Haridus sub-budget of `grantedBudget` only. */
  subBudgetEditor: Member;
  grantedBudget: string;
  /** DATA_VIEW, read on the organisation. */
  reader: Member;
  /** DATA_VIEW and USER_ADMIN, read on the organisation. */
  auditor: Member;
  /** DATA_VIEW and STATUS_ADMIN, update on the organisation. */
  statusAdmin: Member;
  /** DATA_VIEW, update on another organisation. */
  outsider: Member;
}

export async function created(response: { statusCode: number; body: string; json(): { id: string } }): Promise<string> {
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id;
}

export async function recordsWorld(): Promise<RecordsWorld> {
  const server = await startTestServer({ listen: false });
  const admin = await login(server.app, server.admin.email, server.admin.password);
  const accounts = accountsFixture(server.app, admin);
  const fixture = schemesFixture(server.app);
  const organizationId = await accounts.organizationUsingStatuses('Tartu Linnavalitsus', { allowEditing: true });
  const otherOrganization = await accounts.organizationUsingStatuses('Narva Linnavalitsus');

  const documentId = await fixture.document(organizationId);
  const kind = await fixture.classifier(documentId, organizationId, 'tegevusala', { '0': true, '01': false, '02': false });
  const account = await fixture.classifier(documentId, organizationId, 'konto', { '4500': false, '5500': false }, true);
  const source = await fixture.classifier(documentId, organizationId, 'allikas', { A: false, B: false }, false);
  await fixture.updateDocument(documentId, { masterClassifierId: kind, resourceStatusId: IN_PREPARATION });
  const schemeId = await created(
    await admin.request({
      method: 'POST',
      url: `/api/document/${documentId}/schema`,
      payload: { name: 'Kulud', classifierList: [{ classifierId: kind, type: 'MAIN' }] },
    }),
  );
  const subBudget = (name: string, code: string) =>
    admin.request({ method: 'POST', url: `/api/schema/${schemeId}/sub-budget`, payload: { name, classifiers: { [kind]: code } } }).then(created);
  const education = await subBudget('Haridus', '01');
  const culture = await subBudget('Kultuur', '02');

  const budget = async (statusId = IN_PREPARATION) =>
    created(
      await admin.request({
        method: 'POST',
        url: `/api/document/${documentId}/budget`,
        payload: { type: 'COMMON', name: `Eelarve ${randomUUID().slice(0, 6)}`, description: '', resourceStatusId: statusId },
      }),
    );
  const grantedBudget = await budget();

  const member = async (organization: string, privileges: string[], grants: Parameters<typeof accounts.grant>[1]): Promise<Member> => {
    const made = await accounts.member(organization, ['DATA_VIEW', ...privileges]);
    await accounts.grant(made.occupationId, grants);
    return { client: await login(server.app, made.email, PASSWORD), userId: made.userId, occupationId: made.occupationId };
  };
  return {
    server,
    admin,
    organizationId,
    documentId,
    kind,
    account,
    source,
    schemeId,
    education,
    culture,
    budget,
    grantedBudget,
    editors: (count) => Promise.all(Array.from({ length: count }, () => member(organizationId, [], [{ read: true, update: true }]))),
    editor: await member(organizationId, [], [{ read: true, update: true }]),
    subBudgetEditor: await member(organizationId, [], [{ documentId, budgetId: grantedBudget, subBudgetId: education, read: true, update: true }]),
    reader: await member(organizationId, [], [{ read: true }]),
    auditor: await member(organizationId, ['USER_ADMIN'], [{ read: true }]),
    statusAdmin: await member(organizationId, ['STATUS_ADMIN'], [{ read: true, update: true }]),
    outsider: await member(otherOrganization, [], [{ read: true, update: true }]),
  };
}

/** Appends an import's chunk as the import job would (one RecordsImported event) and waits for the records read model. */
export async function importedRecords(
  world: RecordsWorld,
  budgetId: string,
  rows: { name: string; amount: string; months?: string[] | null; classifiers: Record<string, string> }[],
): Promise<string[]> {
  const importId = randomUUID();
  const records = rows.map((row) => ({ recordId: randomUUID(), months: null, ...row }));
  const actor = {
    correlationId: `import-${importId}`,
    userId: world.editor.userId,
    occupationId: world.editor.occupationId,
    organizationId: world.organizationId,
  };
  const data = {
    importId,
    budgetId,
    documentId: world.documentId,
    organizationId: world.organizationId,
    chunk: 0,
    originResourceName: 'eelarve.xlsx',
    records,
  };
  const result = await world.server.app.store.append(
    recordImportStreamName(importId),
    [{ id: randomUUID(), type: 'RecordsImported', data, metadata: eventMetadata(actor, new Date()) }],
    { expectedRevision: 'no_stream' },
  );
  await world.server.app.projections.waitForPosition(['records'], result.position, 10_000);
  return records.map((record) => record.recordId);
}
