import {
  type Flags,
  grantKey,
  NO_GRANT,
  type ResourcePermissionsCommand,
  type ResourcePermissionsState,
  resourcePermissionsDecider,
} from '@eelarve/domain/permissions/decider';
import type { ResourceGrant } from '@eelarve/domain/permissions/events';
import { type OccupationRow, findOccupation } from '@eelarve/projections/accounts/queries';
import { findDocument } from '@eelarve/projections/documents/queries';
import {
  chainFacts,
  type GrantRow,
  documentPermissions,
  occupationGrantsByDocument,
  occupationPermissions,
  organizationGrant,
} from '@eelarve/projections/permissions/queries';
import type { ReadDatabase } from '@eelarve/projections/read-models';
import {
  type CommandResult,
  DomainError,
  groupBy,
  type Permission,
  type PermissionInput,
  type PermissionResources,
  type PermissionsCopy,
  type PermissionSubBudget,
} from '@eelarve/shared';
import { documentBudgets } from '@eelarve/projections/budgets/queries';
import { documentSchemesInOrder, findScheme, listSubBudgets } from '@eelarve/projections/schemes/queries';
import type { FastifyInstance } from 'fastify';
import { readModels } from '../../infrastructure/database';
import type { AuthContext, Caller } from '../../types';
import { visibleTo } from '../permissions/authorize';

/** The read models the permission screens read after a change. */
const READ_MODELS = ['permissions'];

const chainInvalid = (message: string) => new DomainError('PERMISSIONS_CHAIN_INVALID', message);

/** An occupation of an organisation the caller may act in; any other id is "not found". */
async function visibleOccupation(read: ReadDatabase, auth: AuthContext, occupationId: string): Promise<OccupationRow> {
  const occupation = await findOccupation(read, occupationId);
  if (!occupation || !visibleTo(auth, occupation.organization_id)) throw new DomainError('OCCUPATION_NOT_FOUND');
  return occupation;
}

/** A document of the occupation's organisation; another organisation's is "not found". */
async function assertDocumentOf(read: ReadDatabase, organizationId: string, documentId: string): Promise<void> {
  const document = await findDocument(read, documentId);
  if (!document || document.organization_id !== organizationId) throw new DomainError('OBJECT_NOT_FOUND', 'document not found');
}

/**
 * Every id a change names exists in the occupation's organisation (404 otherwise) and sits where
 * the change says: a budget in its document, a sub-budget in its budget's document
 * (PERMISSIONS_CHAIN_INVALID otherwise). Checked for the whole change before anything is written.
 */
async function assertChains(read: ReadDatabase, organizationId: string, inputs: readonly PermissionInput[]): Promise<void> {
  for (const documentId of new Set(inputs.map((input) => input.documentId).filter((value) => value !== null))) {
    await assertDocumentOf(read, organizationId, documentId);
  }
  const budgetIds = [...new Set(inputs.map((input) => input.budgetId).filter((value) => value !== null))];
  const subBudgetIds = [...new Set(inputs.map((input) => input.subBudgetId).filter((value) => value !== null))];
  const facts = await chainFacts(read, budgetIds, subBudgetIds);
  const budgets = new Map(facts.budgets.filter((row) => row.organization_id === organizationId).map((row) => [row.id, row.document_id]));
  const subBudgets = new Map(facts.subBudgets.filter((row) => row.organization_id === organizationId).map((row) => [row.id, row.document_id]));
  for (const input of inputs) {
    if (input.budgetId && !budgets.has(input.budgetId)) throw new DomainError('BUDGET_NOT_FOUND');
    if (input.subBudgetId && !subBudgets.has(input.subBudgetId)) throw new DomainError('SUB_BUDGET_NOT_FOUND');
    if (input.budgetId && budgets.get(input.budgetId) !== input.documentId) throw chainInvalid('the budget is not in the document');
    if (input.subBudgetId && subBudgets.get(input.subBudgetId) !== input.documentId) throw chainInvalid('the sub-budget is not in the document');
  }
}

/** Inputs by the stream they go to: the organisation stream (null) first, then one per document. */
function byStream(inputs: readonly PermissionInput[]): Map<string | null, ResourceGrant[]> {
  const grouped = groupBy(inputs, (input) => input.documentId);
  const organizationFirst = [...grouped].sort(([a], [b]) => (a === null ? -1 : b === null ? 1 : 0));
  return new Map(
    organizationFirst.map(([documentId, group]) => [
      documentId,
      group.map(({ budgetId, subBudgetId, read, update }) => ({ budgetId, subBudgetId, read, update })),
    ]),
  );
}

const stateOf = (rows: readonly GrantRow[]): ResourcePermissionsState => ({
  grants: new Map(rows.map((row) => [grantKey({ budgetId: row.budget_id, subBudgetId: row.sub_budget_id }), { read: row.read, update: row.update }])),
});

/**
 * A change spanning several streams is decided on all of them (on the read model's grants) before
 * the first is written, so a refused bulk change writes nothing; each stream is then decided again
 * on its own events when written.
 */
async function assertDecidable(read: ReadDatabase, occupation: OccupationRow, groups: Map<string | null, ResourceGrant[]>): Promise<void> {
  const current = await occupationGrantsByDocument(read, occupation.id, [null, ...groups.keys()]);
  const scope = { occupationId: occupation.id, organizationId: occupation.organization_id };
  let organization = stateOf(current.get(null) ?? []);
  const organizationChange = groups.get(null);
  if (organizationChange) {
    const command: ResourcePermissionsCommand = {
      type: 'SetResourcePermissions',
      ...scope,
      documentId: null,
      grants: organizationChange,
      organizationGrant: NO_GRANT,
    };
    organization = resourcePermissionsDecider.decide(command, organization).reduce(resourcePermissionsDecider.evolve, organization);
  }
  const organizationGrant = organization.grants.get(grantKey({ budgetId: null, subBudgetId: null })) ?? NO_GRANT;
  for (const [documentId, grants] of groups) {
    if (documentId === null) continue;
    resourcePermissionsDecider.decide(
      { type: 'SetResourcePermissions', ...scope, documentId, grants, organizationGrant },
      stateOf(current.get(documentId) ?? []),
    );
  }
}

const lastPosition = (results: readonly CommandResult[]) => results.reduce<string | null>((last, result) => result.position ?? last, null);

/**
 * Resource permissions of occupations (spec 1, sections 6 and 7): reading needs USER_VIEW or
 * USER_ADMIN, changing USER_ADMIN (declared on the routes). Grants live in one stream per
 * occupation and document (`resourcePermissionsDecider`).
 */
export function resourcePermissionService(app: FastifyInstance) {
  const read = () => readModels(app.db);
  const run = (caller: Caller, command: ResourcePermissionsCommand) =>
    app.commands.run({ decider: resourcePermissionsDecider, command, actor: caller.actor, readModels: READ_MODELS, id: command.occupationId });

  /** Sets grants of one stream; a document's stream is decided on the occupation's organisation grant. */
  async function setStream(caller: Caller, occupation: OccupationRow, documentId: string | null, grants: ResourceGrant[]) {
    const inherited: Flags = documentId ? await organizationGrant(read(), occupation.id, occupation.organization_id) : NO_GRANT;
    return run(caller, {
      type: 'SetResourcePermissions',
      occupationId: occupation.id,
      organizationId: occupation.organization_id,
      documentId,
      grants,
      organizationGrant: inherited,
    });
  }

  async function change(caller: Caller, occupationId: string, inputs: readonly PermissionInput[]) {
    const occupation = await visibleOccupation(read(), caller.auth, occupationId);
    await assertChains(read(), occupation.organization_id, inputs);
    const groups = byStream(inputs);
    if (groups.size > 1) await assertDecidable(read(), occupation, groups);
    const results: CommandResult[] = [];
    // The organisation stream first, so the documents are decided on its new grant.
    for (const [documentId, grants] of groups) results.push(await setStream(caller, occupation, documentId, grants));
    return { id: occupationId, position: lastPosition(results) };
  }

  return {
    /** GET api/occupation/{id}/permissions?documentId= */
    async ofOccupation(caller: Caller, occupationId: string, documentId: string | undefined): Promise<Permission[]> {
      const occupation = await visibleOccupation(read(), caller.auth, occupationId);
      if (documentId) await assertDocumentOf(read(), occupation.organization_id, documentId);
      return occupationPermissions(read(), occupation.organization_id, occupationId, documentId ?? null);
    },

    /** GET api/document/{id}/permissions */
    async ofDocument(caller: Caller, documentId: string): Promise<Permission[]> {
      // User viewers and administrators see every document's grants: managing them is their job,
      // whatever they were granted themselves; another organisation's document is "not found".
      const document = await findDocument(read(), documentId);
      if (!document || !visibleTo(caller.auth, document.organization_id)) throw new DomainError('OBJECT_NOT_FOUND', 'document not found');
      return documentPermissions(read(), document.organization_id, documentId);
    },

    /** GET api/document/{id}/permission-resources: the document's budgets and schemes by name, whatever the caller's own grants. */
    async resourcesOf(caller: Caller, documentId: string): Promise<PermissionResources> {
      const document = await findDocument(read(), documentId);
      if (!document || !visibleTo(caller.auth, document.organization_id)) throw new DomainError('OBJECT_NOT_FOUND', 'document not found');
      const [budgets, schemes] = await Promise.all([documentBudgets(read(), documentId), documentSchemesInOrder(read(), documentId)]);
      return {
        budgets: budgets.map((budget) => ({ id: budget.id, name: budget.name, type: budget.type })),
        schemes: schemes.map((scheme) => ({ id: scheme.id, name: scheme.name })),
      };
    },

    /** GET api/schema/{id}/permission-sub-budgets: the scheme's sub-budgets by name. */
    async subBudgetsOf(caller: Caller, schemeId: string): Promise<PermissionSubBudget[]> {
      const scheme = await findScheme(read(), schemeId);
      if (!scheme || !visibleTo(caller.auth, scheme.organization_id)) throw new DomainError('SCHEME_NOT_FOUND');
      return (await listSubBudgets(read(), schemeId)).map((subBudget) => ({ id: subBudget.id, name: subBudget.name }));
    },

    /** PUT api/occupation/{id}/permission */
    set: (caller: Caller, occupationId: string, input: PermissionInput) => change(caller, occupationId, [input]),

    /** PUT api/occupation/{id}/permissions: the header toggle grants update or removes grants over a set. */
    setMany: (caller: Caller, occupationId: string, inputs: readonly PermissionInput[]) => change(caller, occupationId, inputs),

    /** POST api/occupation/{id}/permissions/copy: the occupation's grants become exactly the other's. */
    async copy(caller: Caller, occupationId: string, input: PermissionsCopy) {
      const target = await visibleOccupation(read(), caller.auth, occupationId);
      const source = await visibleOccupation(read(), caller.auth, input.fromOccupationId);
      if (source.organization_id !== target.organization_id) throw new DomainError('OCCUPATION_NOT_FOUND', 'the occupations are in different organisations');
      const [from, current] = await Promise.all([occupationGrantsByDocument(read(), source.id), occupationGrantsByDocument(read(), target.id)]);
      const streams = [...new Set([...from.keys(), ...current.keys()])].sort((a, b) => (a === null ? -1 : b === null ? 1 : a.localeCompare(b)));
      const results: CommandResult[] = [];
      for (const documentId of streams) {
        const grants = (from.get(documentId) ?? []).map((row) => ({
          budgetId: row.budget_id,
          subBudgetId: row.sub_budget_id,
          read: row.read,
          update: row.update,
        }));
        results.push(
          await run(caller, {
            type: 'ReplaceResourcePermissions',
            occupationId: target.id,
            organizationId: target.organization_id,
            documentId,
            grants,
            copiedFromOccupationId: source.id,
          }),
        );
      }
      return { id: occupationId, position: lastPosition(results) };
    },
  };
}
