import { DEFAULT_RESOURCE_STATUSES } from '@eelarve/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ProjectorSpec, newId, projectorSpec } from '../../test/given-events';
import { resourceStatusesProjector } from './projector';
import { findResourceStatus, organizationResourceStatuses, statusesOverridingRole } from './queries';

let spec: ProjectorSpec;
beforeEach(async () => {
  spec = await projectorSpec(resourceStatusesProjector);
});
afterEach(async () => spec.close());

const approved = DEFAULT_RESOURCE_STATUSES[2]!;
const text = (et: string) => ({ et, en: '' });
const rule = (overrideRoles: string[] = []) => ({ type: 'RESOURCE_WRITE_DISABLED', overridePrivileges: [], overrideRoles });

const created = (organizationId: string, statusId: string, name: string, createdAt: string, overrideRoles: string[] = []) => ({
  stream: `resource-status-${statusId}`,
  type: 'ResourceStatusCreated',
  data: { statusId, organizationId, name: text(name), description: text('kirjeldus'), icon: 'flag', rules: [rule(overrideRoles)], createdAt },
});

const ids = (rows: Array<{ id: string }>) => rows.map((row) => row.id);

describe('resource statuses projector', () => {
  it('given nothing, lists the default statuses, read-only, as the catalogue has them', async () => {
    const organizationId = newId();
    const rows = await organizationResourceStatuses(spec.read, organizationId);
    expect(ids(rows)).toEqual(DEFAULT_RESOURCE_STATUSES.map((status) => status.id));
    expect(rows[2]).toMatchObject({ organization_id: organizationId, read_only: true, name: approved.name, icon: approved.icon, rules: approved.rules });
  });

  it('given own statuses made, lists them after the defaults in the order made, only in their organisation', async () => {
    const [organizationId, other, first, second, foreign] = [newId(), newId(), newId(), newId(), newId()];
    await spec.given(
      created(organizationId, second, 'Teine', '2026-11-25T11:00:00.000Z'),
      created(organizationId, first, 'Esimene', '2026-11-25T10:00:00.000Z'),
      created(other, foreign, 'Võõras', '2026-11-25T09:00:00.000Z'),
    );
    const rows = await organizationResourceStatuses(spec.read, organizationId);
    expect(ids(rows).slice(DEFAULT_RESOURCE_STATUSES.length)).toEqual([first, second]);
    expect(rows.at(-1)).toMatchObject({ read_only: false, name: text('Teine'), description: text('kirjeldus'), icon: 'flag', rules: [rule()] });
    expect(await findResourceStatus(spec.read, organizationId, foreign)).toBeUndefined();
  });

  it('given an update of an own status and of a default status, shows the new content; the default only in its organisation', async () => {
    const [organizationId, other, statusId] = [newId(), newId(), newId()];
    await spec.given(
      created(organizationId, statusId, 'Vana', '2026-11-25T10:00:00.000Z'),
      {
        stream: `resource-status-${statusId}`,
        type: 'ResourceStatusUpdated',
        data: { statusId, organizationId, name: text('Uus'), description: text(''), icon: 'star', rules: [], readOnly: false },
      },
      {
        stream: `resource-status-${organizationId}-${approved.id}`,
        type: 'ResourceStatusUpdated',
        data: {
          statusId: approved.id,
          organizationId,
          name: text('Heaks kiidetud'),
          description: approved.description,
          icon: 'lock',
          rules: approved.rules,
          readOnly: true,
        },
      },
    );
    expect(await findResourceStatus(spec.read, organizationId, statusId)).toMatchObject({ name: text('Uus'), icon: 'star', rules: [], read_only: false });
    const rows = await organizationResourceStatuses(spec.read, organizationId);
    expect(rows[2]).toMatchObject({ id: approved.id, name: text('Heaks kiidetud'), icon: 'lock', read_only: true });
    expect(rows).toHaveLength(DEFAULT_RESOURCE_STATUSES.length + 1);
    expect((await organizationResourceStatuses(spec.read, other))[2]).toMatchObject({ name: approved.name, icon: approved.icon });
  });

  it('given a role removed from a status, finds the status by the role before and not after', async () => {
    const [organizationId, statusId, roleId, otherRole] = [newId(), newId(), newId(), newId()];
    await spec.given(created(organizationId, statusId, 'Rollidega', '2026-11-25T10:00:00.000Z', [roleId, otherRole]));
    expect(await statusesOverridingRole(spec.read, organizationId, roleId)).toEqual([statusId]);
    await spec.given({
      stream: `resource-status-${statusId}`,
      type: 'ResourceStatusRoleRemoved',
      data: { statusId, organizationId, roleId, rules: [rule([otherRole])] },
    });
    expect(await statusesOverridingRole(spec.read, organizationId, roleId)).toEqual([]);
    expect((await findResourceStatus(spec.read, organizationId, statusId))?.rules).toEqual([rule([otherRole])]);
  });

  it('given a deleted status and a deleted organisation, lists neither', async () => {
    const [organizationId, other, statusId, kept] = [newId(), newId(), newId(), newId()];
    await spec.given(
      created(organizationId, statusId, 'Kustutatav', '2026-11-25T10:00:00.000Z'),
      created(other, kept, 'Organisatsiooniga kaob', '2026-11-25T10:00:00.000Z'),
      { stream: `resource-status-${statusId}`, type: 'ResourceStatusDeleted', data: { statusId, organizationId } },
      { stream: `organization-${other}`, type: 'OrganizationDeleted', data: { organizationId: other } },
    );
    expect(await findResourceStatus(spec.read, organizationId, statusId)).toBeUndefined();
    expect(await spec.read.selectFrom('resource_statuses').selectAll().where('organization_id', '=', other).execute()).toEqual([]);
  });
});
