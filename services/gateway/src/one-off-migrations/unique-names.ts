import {
  type ClassifierState,
  classifierDecider,
  classifierStream,
  normaliseEmail,
  normaliseRoleName,
  roleDecider,
  roleStream,
  userDecider,
  userStream,
} from '@eelarve/domain';
import { comparePositions, type GlobalPosition } from '@eelarve/eventstore';
import { type DuplicateGroup, duplicateEmails, duplicateRoleNames } from '@eelarve/projections/accounts/queries';
import { DomainError } from '@eelarve/shared';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { CommandActor } from '../infrastructure/commands';
import { readModels } from '../infrastructure/database';
import { classifierState, fieldNames } from '../features/classifiers/field-names';
import { classifierContext } from '../features/classifiers/context';
import { roleNames, roleState, withRoleName } from '../features/roles/name-reservation';
import { emails, userState, withEmail } from '../features/users/email-reservation';
import { claim, settle, type UniqueValueKind, withClaim } from '../features/users/reservations';
import type { OneOffReport } from './runner';

/**
 * Repairs names that must be unique but that races of older versions left shared (issue 8,
 * finding 8): live roles of one organisation with one name, users with one e-mail, classifiers of
 * one document with one field name. In each group the oldest record (first event) keeps the name
 * (a role the rules forbid renaming, the admin role, keeps it before any other); the others are
 * renamed through their own commands, deterministically: role "Name (2)", "Name (3)" …, e-mail
 * "local+duplicate2@domain" …, field name "field_2" …, the first such name that is free. Then the
 * keeper's claim is recorded, so the name stays its own.
 */
export interface RepairedGroup {
  kind: 'roleName' | 'email' | 'fieldName';
  /** Organisation (roles), document (field names) or null (e-mails are unique everywhere). */
  scope: string | null;
  value: string;
  kept: string;
  /** The keeper's claim on the name is recorded (false: another claim was still pending). */
  keeperClaimed: boolean;
  renamed: Array<{ id: string; to: string }>;
}

interface Holder {
  id: string;
  value: string;
  bornAt: GlobalPosition;
  /** The rules allow renaming it (not the admin role). */
  renamable: boolean;
}

/** One kind of unique name: where duplicates show and how a holder is renamed. */
interface NameKind {
  kind: RepairedGroup['kind'];
  /** Groups of read-model ids sharing a name, per scope. */
  groups(app: FastifyInstance): Promise<DuplicateGroup[]>;
  /** The holder as its own stream has it (null when deleted). */
  holder(app: FastifyInstance, id: string): Promise<Holder | null>;
  key(value: string): string;
  uniqueValues(app: FastifyInstance, scope: string | null): UniqueValueKind;
  candidate(value: string, n: number): string;
  /** Renames through the holder's own command (the command runner), under a claim on the new name. */
  rename(app: FastifyInstance, actor: CommandActor, holder: Holder, scope: string | null, to: string): Promise<{ position: string | null }>;
}

const MAX_SUFFIX = 1_000;

async function bornAt(app: FastifyInstance, stream: string): Promise<GlobalPosition | null> {
  const [first] = await app.store.readStream(stream, { maxCount: 1 });
  return first?.position ?? null;
}

/** The repair's writes wait for no read model one by one: the group waits once, at its end. */
const NO_WAIT: readonly string[] = [];

const roles: NameKind = {
  kind: 'roleName',
  groups: (app) => duplicateRoleNames(readModels(app.db)),
  async holder(app, id) {
    const state = await roleState(app, id);
    const born = await bornAt(app, roleStream(id));
    return state.status === 'active' && born ? { id, value: state.name, bornAt: born, renamable: state.type !== 'ADMIN' } : null;
  },
  key: normaliseRoleName,
  uniqueValues: (app, scope) => roleNames(app, scope as string),
  candidate: (name, n) => `${name.trim()} (${n})`,
  async rename(app, actor, holder, scope, to) {
    const state = await roleState(app, holder.id);
    if (state.status !== 'active') throw new DomainError('ROLE_NOT_FOUND');
    const command = { type: 'UpdateRole' as const, roleId: holder.id, name: to, description: state.description, privilegeIds: state.privilegeIds };
    return withRoleName(app, { organizationId: scope as string, name: to, roleId: holder.id, actor }, () =>
      app.commands.run({ decider: roleDecider, command, actor, readModels: NO_WAIT }),
    );
  },
};

const users: NameKind = {
  kind: 'email',
  groups: (app) => duplicateEmails(readModels(app.db)),
  async holder(app, id) {
    const state = await userState(app.store, id);
    const born = await bornAt(app, userStream(id));
    return state.status === 'active' && born ? { id, value: state.email, bornAt: born, renamable: true } : null;
  },
  key: normaliseEmail,
  uniqueValues: (app) => emails(app),
  candidate(email, n) {
    const at = email.lastIndexOf('@');
    return `${email.slice(0, at)}+duplicate${n}${email.slice(at)}`;
  },
  rename: (app, actor, holder, _scope, to) =>
    withEmail(app, { email: to, userId: holder.id, actor }, () =>
      app.commands.run({ decider: userDecider, command: { type: 'ChangeEmail', userId: holder.id, email: to }, actor, readModels: NO_WAIT }),
    ),
};

const classifiers: NameKind = {
  kind: 'fieldName',
  // The classifiers read model belongs to another feature; its one grouping query stays here.
  groups: async (app) =>
    (
      await sql<DuplicateGroup>`select document_id::text as scope, array_agg(id::text order by id) as ids from read.classifiers group by document_id, lower(field_name) having count(*) > 1`.execute(
        app.db,
      )
    ).rows,
  async holder(app, id) {
    const state = await classifierState(app, id);
    const born = await bornAt(app, classifierStream(id));
    return state.status === 'active' && born ? { id, value: state.fieldName, bornAt: born, renamable: true } : null;
  },
  key: (fieldName) => fieldName.toLowerCase(),
  uniqueValues: (app, scope) => fieldNames(app, scope as string),
  candidate: (fieldName, n) => `${fieldName}_${n}`,
  async rename(app, actor, holder, scope, to) {
    const state = await classifierState(app, holder.id);
    if (state.status !== 'active') throw new DomainError('CLASSIFIER_NOT_FOUND');
    const { name, itemName, description, required, itemCanChangeSign, primary, primaryGroupedById, displayOrder, displayMode, codeSettings, groupingId } =
      state;
    const context = await classifierContext(app.db, { classifierId: holder.id, documentId: state.documentId, groupingId });
    const command = {
      type: 'UpdateClassifier' as const,
      classifierId: holder.id,
      ...{ name, itemName, description, required, itemCanChangeSign, primary, primaryGroupedById, displayOrder, displayMode, codeSettings },
      fieldName: to,
      context,
    };
    const formerValue = (before: ClassifierState | undefined) => (before?.status === 'active' ? before.fieldName : null);
    return withClaim(app.store, fieldNames(app, scope as string), { value: to, ownerId: holder.id, actor, formerValue }, () =>
      app.commands.run({ decider: classifierDecider, command, actor, readModels: NO_WAIT }),
    );
  },
};

const KINDS: readonly NameKind[] = [roles, users, classifiers];
const READ_MODELS = ['accounts', 'classifiers'];

export async function repairDuplicateNames(app: FastifyInstance, actor: CommandActor): Promise<OneOffReport> {
  const groups: RepairedGroup[] = [];
  for (const kind of KINDS) {
    for (const group of await kind.groups(app)) groups.push(...(await repairGroup(app, actor, kind, group)));
  }
  const renamed = groups.reduce((sum, group) => sum + group.renamed.length, 0);
  return { found: renamed, groups };
}

/** Read-model ids share a name; their own streams say who really carries which name now. */
async function repairGroup(app: FastifyInstance, actor: CommandActor, kind: NameKind, group: DuplicateGroup): Promise<RepairedGroup[]> {
  const byKey = new Map<string, Holder[]>();
  for (const id of group.ids) {
    const holder = await kind.holder(app, id);
    if (holder) byKey.set(kind.key(holder.value), [...(byKey.get(kind.key(holder.value)) ?? []), holder]);
  }
  const repaired: RepairedGroup[] = [];
  for (const holders of byKey.values()) {
    if (holders.length < 2) continue;
    const [kept, ...others] = holders.sort(keeperFirst) as [Holder, ...Holder[]];
    const renamed: RepairedGroup['renamed'] = [];
    let last: string | null = null;
    for (const holder of others) {
      const { to, position } = await renameToFreeName(app, actor, kind, group.scope, holder);
      renamed.push({ id: holder.id, to });
      last = position ?? last;
    }
    const keeperClaimed = await claimForKeeper(app, actor, kind.uniqueValues(app, group.scope), kept);
    await app.commands.awaitReadModels(READ_MODELS, last);
    repaired.push({ kind: kind.kind, scope: group.scope, value: kept.value, kept: kept.id, keeperClaimed, renamed });
  }
  return repaired;
}

/** The keeper may have held the name without a claim (it raced): its claim is recorded now. */
async function claimForKeeper(app: FastifyInstance, actor: CommandActor, values: UniqueValueKind, kept: Holder): Promise<boolean> {
  try {
    await settle(app.store, values, await claim(app.store, values, { value: kept.value, ownerId: kept.id, actor }));
    return true;
  } catch (error) {
    // Still claimed by a renamed holder's unfinished request: the claim's own expiry frees it later.
    if (error instanceof DomainError && error.code === values.conflict) return false;
    throw error;
  }
}

/** The admin role first (it cannot be renamed), then the oldest; ties by id, so the choice is the same on every run. */
function keeperFirst(a: Holder, b: Holder): number {
  if (a.renamable !== b.renamable) return a.renamable ? 1 : -1;
  return comparePositions(a.bornAt, b.bornAt) || a.id.localeCompare(b.id);
}

async function renameToFreeName(
  app: FastifyInstance,
  actor: CommandActor,
  kind: NameKind,
  scope: string | null,
  holder: Holder,
): Promise<{ to: string; position: string | null }> {
  const conflict = kind.uniqueValues(app, scope).conflict;
  for (let n = 2; n <= MAX_SUFFIX; n++) {
    const to = kind.candidate(holder.value, n);
    try {
      const outcome = await kind.rename(app, actor, holder, scope, to);
      return { to, position: outcome.position };
    } catch (error) {
      // Taken: the next number.
      if (!(error instanceof DomainError && error.code === conflict)) throw error;
    }
  }
  throw new Error(`no free name for ${kind.kind} ${holder.id} up to suffix ${MAX_SUFFIX}`);
}
