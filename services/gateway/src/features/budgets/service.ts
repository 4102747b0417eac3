import { type BudgetCommand, budgetDecider, budgetOrderDecider } from '@eelarve/domain';
import {
  adminBudgets,
  type BudgetRow,
  type BudgetStructure,
  budgetStructures,
  documentBudgets,
  documentHasMasterClassifier,
  organizationBudgets,
  sumBudgetsUsing,
} from '@eelarve/projections/budgets/queries';
import {
  type adminBudgetsQuerySchema,
  type Budget,
  type BudgetAdminView,
  type budgetCreateSchema,
  type budgetInputSchema,
  type budgetOrderSchema,
  DomainError,
} from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { CommandContext, CommandLock } from '../../infrastructure/command-runner';
import { readModels } from '../../infrastructure/database';
import type { AuthContext, Caller } from '../../types';
import { assertResourceStatusField } from '../resource-statuses/service';
import { canAccess, documentResource, isPlatformAdmin, organizationResource } from '../permissions/authorize';
import { budgetRef, budgetResource, componentFacts, permissionsOfEach } from './access';
import { deleteApiKey, issueApiKey, readApiKey } from './api-keys';
import { assertCopyPartsAvailable, assertCopySchemes, availableBudgetCopyParts, copyBudget, matchingSchemes, transferrableSubBudgets } from './copy';
import { infoOf, toAdminBudget, toBudget, toHierarchy } from './responses';

type BudgetCreateInput = z.output<typeof budgetCreateSchema>;
type BudgetUpdateInput = z.output<typeof budgetInputSchema>;
type BudgetCopy = NonNullable<BudgetCreateInput['copy']>;
type BudgetOrder = z.output<typeof budgetOrderSchema>['list'];
type AdminBudgetsQuery = z.output<typeof adminBudgetsQuerySchema>;

/** The budgets list, hierarchy and forms read the budgets read model. */
const READ_MODELS = ['budgets'] as const;

/**
 * Changes of sum-budget components, made safe under concurrency.
 *
 * The rules of spec 2 section 5 (no cycle, no component counted twice, no deleting a budget a
 * sum budget adds up) span all budget streams of a document and are checked against the budgets
 * read model. Unguarded, two concurrent edits (A adds B while B adds A) each pass against a read
 * model without the other's change, and together form a cycle.
 *
 * So every change that can break them (creating or updating a sum budget, deleting any budget)
 * runs under one command lock per document: the runner holds a PostgreSQL advisory lock (so it
 * holds across gateway instances), waits until the budgets projector has applied the previous
 * change made under it (SERVICE_UNAVAILABLE rather than deciding on stale facts), and only then
 * builds the command, so its facts are read under the lock.
 *
 * Why not a per-document stream of the component graph appended at an expected revision: the
 * budget's own event and a graph event cannot be appended atomically (two streams), so the graph
 * would have to become the only record of components, with projector changes and a seed for
 * existing documents. The lock keeps events and projector as they are.
 */
const componentLock = (documentId: string): CommandLock => ({ name: `budget-components:${documentId}` });

/** Gateway and ERP URLs are for platform administrators only (spec 2, section 6). */
function assertAdminFields(auth: AuthContext, input: { gwUrl?: string | null; erpUrl?: string | null }): void {
  if ((input.gwUrl !== undefined || input.erpUrl !== undefined) && !isPlatformAdmin(auth)) {
    throw new DomainError('INSUFFICIENT_PERMISSIONS', 'only a platform administrator may set the gateway and ERP URLs');
  }
}

/** The budget's own fields of a create or edit request, as the decider takes them. */
const fieldsOf = ({ name, description, resourceStatusId, sumBudgetComponentIds, gwUrl, erpUrl }: BudgetUpdateInput) => ({
  name,
  description,
  resourceStatusId,
  sumBudgetComponentIds,
  gwUrl,
  erpUrl,
});

/** The budget rules (e.g. no comment copy into a monitoring budget) answer before a copy part this version lacks does. */
function assertCopyable(command: BudgetCommand, copy: BudgetCopy): void {
  budgetDecider.decide(command, budgetDecider.initialState());
  assertCopyPartsAvailable(copy);
}

const copiesPermissions = (copy: BudgetCopy) => copy.copyPermissions || copy.schemes.some((scheme) => scheme.copySubBudgetPermissions);

/** The ids of a comma-separated inclusion list that are ids at all (others cannot name a budget). */
const idsOf = (inclusionList: string) =>
  inclusionList
    .split(',')
    .map((value) => value.trim())
    .filter((value) => z.uuid().safeParse(value).success);

/**
 * Budgets of a document (spec 2): every function checks the caller's access to the document or
 * budget first (404 for another organisation's), reads its facts from the read models and runs
 * its command through the command runner.
 */
export function budgetService(app: FastifyInstance) {
  const read = () => readModels(app.db);
  const run = (caller: Caller, command: BudgetCommand | ((context: CommandContext) => Promise<BudgetCommand> | BudgetCommand), lock?: CommandLock) =>
    app.commands.run({ decider: budgetDecider, command, actor: caller.actor, readModels: READ_MODELS, lock });

  /** The budgets of a list the caller may read, with their permissions. */
  async function readable(auth: AuthContext, rows: readonly BudgetRow[], includeMeta: boolean): Promise<(Budget | BudgetAdminView)[]> {
    const names = new Map(rows.map((row) => [row.id, row.name]));
    const permissions = await permissionsOfEach(app, auth, rows);
    const structures = await budgetStructures(
      read(),
      rows.filter((_, index) => permissions[index]?.read),
    );
    return rows.flatMap((row, index) => {
      const granted = permissions[index];
      if (!granted?.read) return [];
      return [toBudget(app.config.publicUrl, auth, row, granted, structures.get(row.id) as BudgetStructure, includeMeta ? infoOf(row, names) : undefined)];
    });
  }

  /**
   * Whether the budget's status locks its settings (the caller holds the update grant). A status
   * administrator may then still change the status, and only that; anyone else is refused.
   */
  async function settingsLockedForStatusAdmin(auth: AuthContext, row: BudgetRow): Promise<boolean> {
    if (await canAccess(app, auth, budgetRef(row), 'updateSettings')) return false;
    if (!auth.privileges.includes('STATUS_ADMIN') && !isPlatformAdmin(auth)) await budgetResource(app, auth, row.id, 'updateSettings');
    return true;
  }

  /** The document's budgets as a sum budget's rules see them, read now (under the component lock). */
  const factsOf = async (auth: AuthContext, documentId: string) => componentFacts(app, auth, await documentBudgets(read(), documentId));

  /** Issues the monitoring budget's import key (kept encrypted) and records that it was issued. */
  async function issueKey(caller: Caller, budgetId: string): Promise<string> {
    const apiKey = await issueApiKey(app.db, budgetId);
    await run(caller, ({ now }) => ({ type: 'IssueBudgetApiKey', budgetId, now }));
    return apiKey;
  }

  /** The budget a new one is copied from, after checking the caller may copy what was chosen. */
  async function copySource({ auth }: Caller, documentId: string, copy: BudgetCopy): Promise<BudgetRow> {
    const source = await budgetResource(app, auth, copy.sourceBudgetId, 'read');
    if (copiesPermissions(copy) && !auth.privileges.includes('USER_ADMIN') && !isPlatformAdmin(auth)) {
      throw new DomainError('INSUFFICIENT_PERMISSIONS', 'copying permissions needs USER_ADMIN');
    }
    assertCopySchemes(copy.schemes, await matchingSchemes(app, source, documentId));
    return source;
  }

  return {
    list: async (caller: Caller, documentId: string, includeMeta: boolean) => {
      await documentResource(app, caller.auth, documentId, 'read');
      return readable(caller.auth, await documentBudgets(read(), documentId), includeMeta);
    },

    hierarchy: async (caller: Caller, documentId: string) => {
      await documentResource(app, caller.auth, documentId, 'read');
      const rows = await documentBudgets(read(), documentId);
      return toHierarchy(rows, await permissionsOfEach(app, caller.auth, rows));
    },

    transferrableSubBudgets: async (caller: Caller, documentId: string, sourceBudgetId: string) => {
      await documentResource(app, caller.auth, documentId, 'read');
      const source = await budgetResource(app, caller.auth, sourceBudgetId, 'read');
      return transferrableSubBudgets(app, source, documentId);
    },

    /** The organisation's readable budgets of readable documents (the copy form's tree of documents). */
    ofOrganization: async (caller: Caller, organizationId: string) => {
      await organizationResource(app, caller.auth, organizationId, 'read');
      // A budget readable through the grants makes its document readable too: one filter does.
      return readable(caller.auth, await organizationBudgets(read(), organizationId), false);
    },

    get: async (caller: Caller, budgetId: string) => {
      const row = await budgetResource(app, caller.auth, budgetId, 'read');
      const [permissions] = await permissionsOfEach(app, caller.auth, [row]);
      const structure = (await budgetStructures(read(), [row])).get(row.id) as BudgetStructure;
      return toBudget(app.config.publicUrl, caller.auth, row, permissions ?? { read: false, update: false, restrictions: [] }, structure);
    },

    create: async (caller: Caller, documentId: string, input: BudgetCreateInput) => {
      const document = await documentResource(app, caller.auth, documentId, 'update');
      await assertResourceStatusField(app, document.organizationId, input.resourceStatusId);
      const hasMasterClassifier = await documentHasMasterClassifier(read(), documentId);
      assertAdminFields(caller.auth, input);
      const source = input.copy ? await copySource(caller, documentId, input.copy) : null;
      const sum = input.type === 'SUM_BUDGET';
      const outcome = await run(
        caller,
        async ({ now, newId }) => {
          const command: BudgetCommand = {
            type: 'CreateBudget',
            budgetId: newId(),
            documentId,
            organizationId: document.organizationId,
            budgetType: input.type,
            tags: input.tags,
            ...fieldsOf(input),
            componentFacts: sum ? await factsOf(caller.auth, documentId) : [],
            documentHasMasterClassifier: hasMasterClassifier,
            copiedFrom: input.copy ?? null,
            now,
          };
          if (input.copy) assertCopyable(command, input.copy);
          return command;
        },
        // Only a sum budget has components; other new budgets cannot break the sum-budget rules.
        sum ? componentLock(documentId) : undefined,
      );
      if (input.type === 'MONITORING') await issueKey(caller, outcome.id);
      if (source && input.copy) await copyBudget(app, caller, { source, budgetId: outcome.id, documentId }, input.copy);
      return { id: outcome.id, position: outcome.position };
    },

    update: async (caller: Caller, budgetId: string, input: BudgetUpdateInput) => {
      const row = await budgetResource(app, caller.auth, budgetId, 'updateStatus');
      const onlyStatusMayChange = await settingsLockedForStatusAdmin(caller.auth, row);
      await assertResourceStatusField(app, row.organization_id, input.resourceStatusId);
      assertAdminFields(caller.auth, input);
      const sum = row.type === 'SUM_BUDGET';
      return run(
        caller,
        async () => ({
          type: 'UpdateBudget',
          budgetId: row.id,
          budgetType: input.type,
          ...fieldsOf(input),
          onlyStatusMayChange,
          componentFacts: sum ? await factsOf(caller.auth, row.document_id) : [],
        }),
        sum ? componentLock(row.document_id) : undefined,
      );
    },

    setTags: async (caller: Caller, budgetId: string, tags: string[]) => {
      const row = await budgetResource(app, caller.auth, budgetId, 'updateSettings');
      return run(caller, { type: 'SetBudgetTags', budgetId: row.id, tags });
    },

    remove: async (caller: Caller, budgetId: string) => {
      const row = await budgetResource(app, caller.auth, budgetId, 'update');
      // Any budget may be a component: its deletion must not race a sum budget adding it.
      const outcome = await run(
        caller,
        async () => ({ type: 'DeleteBudget', budgetId: row.id, usedAsComponentBy: await sumBudgetsUsing(read(), row.id) }),
        componentLock(row.document_id),
      );
      await deleteApiKey(app.db, row.id);
      return outcome;
    },

    /** A monitoring budget's import key, issued on first request (platform administrators). */
    apiKey: async (caller: Caller, budgetId: string) => {
      const row = await budgetResource(app, caller.auth, budgetId, 'read');
      if (row.type !== 'MONITORING') throw new DomainError('BUDGET_NOT_MONITORING');
      return { apiKey: (await readApiKey(app.db, row.id)) ?? (await issueKey(caller, row.id)) };
    },

    setSync: async (caller: Caller, budgetId: string, enabled: boolean) => {
      // Pausing or resuming sync is the platform administrator's switch, whatever the status locks.
      const row = await budgetResource(app, caller.auth, budgetId, 'updateStatus');
      return run(caller, { type: 'SetBudgetSync', budgetId: row.id, enabled });
    },

    // Which copy options the budget form can offer (the web greys out parts whose feature is not there yet).
    copyParts: (_caller: Caller) => ({ parts: availableBudgetCopyParts() }),

    copySchemes: async (caller: Caller, budgetId: string, targetDocumentId: string | undefined) => {
      const source = await budgetResource(app, caller.auth, budgetId, 'read');
      const target = targetDocumentId ?? source.document_id;
      await documentResource(app, caller.auth, target, 'read');
      return matchingSchemes(app, source, target);
    },

    reorder: async (caller: Caller, documentId: string, list: BudgetOrder) => {
      await documentResource(app, caller.auth, documentId, 'update');
      const ids = new Set((await documentBudgets(read(), documentId)).map((row) => row.id));
      const unknown = list.find((entry) => !ids.has(entry.id));
      if (unknown) throw new DomainError('BUDGET_NOT_FOUND', 'not a budget of the document', { id: unknown.id });
      return app.commands.run({
        decider: budgetOrderDecider,
        command: { type: 'ReorderBudgets', documentId, list },
        actor: caller.actor,
        readModels: READ_MODELS,
        id: documentId,
      });
    },

    /** Every organisation's budgets (platform administrators: the route declares IS_ADMIN). */
    adminList: async (_caller: Caller, query: AdminBudgetsQuery) => {
      const rows = await adminBudgets(read(), { type: query.type, budgetIds: query.inclusionList === undefined ? undefined : idsOf(query.inclusionList) });
      return rows.map(toAdminBudget);
    },
  };
}
