import { DEFAULT_RESOURCE_STATUSES, type Me, type Privilege, type ResourceStatus } from '@eelarve/shared';
import { describe, expect, it } from 'vitest';
import { ME_DEFAULTS } from '../../app/session/me-fixture';
import { canUnlockStatus, LOCKING_RULES, lockingStatus, restricts, rulesInForce, settingsLock } from './status-lock';

const statuses: ResourceStatus[] = DEFAULT_RESOURCE_STATUSES.map((status) => ({ ...status, readOnly: true, resettable: false }));
const [IN_PREPARATION, SUBMITTED, APPROVED, HIDDEN] = statuses.map((status) => status.id) as [string, string, string, string];

function me(privileges: Privilege[]): Me {
  const base = { id: 'u1', name: 'Mari', email: 'mari@example.ee', organizationId: 'org-a', organizationName: 'A', occupationId: 'a', lastOccupationId: null };
  return { ...base, occupations: [], ...ME_DEFAULTS, privileges, organizationEnableResourceStatuses: true, resourceStatuses: statuses };
}

const locked = { read: true, update: true, restrictions: ['RESOURCE_WRITE_DISABLED', 'METADATA_WRITE_DISABLED', 'SYNCHRONIZATION_PAUSED'] } as const;
const open = { read: true, update: true, restrictions: [] };

describe('what the statuses lock in the web', () => {
  it('locks the settings under METADATA_WRITE_DISABLED; only a status or platform administrator may still change the status', () => {
    expect(settingsLock(me(['DATA_VIEW']), locked)).toEqual({ locked: true, statusEditable: false });
    expect(settingsLock(me(['STATUS_ADMIN']), locked)).toEqual({ locked: true, statusEditable: true });
    expect(settingsLock(me(['IS_ADMIN']), locked)).toEqual({ locked: true, statusEditable: true });
    expect(settingsLock(me([]), open)).toEqual({ locked: false, statusEditable: true });
    expect(canUnlockStatus(me(['STATUS_VIEW']))).toBe(false);
  });

  it('tells which rules are in force', () => {
    expect(restricts(locked, 'READ_DISABLED', 'RESOURCE_WRITE_DISABLED')).toBe(true);
    expect(restricts(locked, 'READ_DISABLED')).toBe(false);
    expect(rulesInForce(locked, LOCKING_RULES)).toEqual(['RESOURCE_WRITE_DISABLED', 'METADATA_WRITE_DISABLED']);
    expect(rulesInForce({ ...open, restrictions: ['SYNCHRONIZATION_PAUSED'] }, LOCKING_RULES)).toEqual([]);
  });

  it("names the budget's own status before its document's, and only a status that brings the rule", () => {
    const user = me([]);
    const byId = (id: string) => statuses.find((status) => status.id === id);
    expect(lockingStatus(user, { budget: APPROVED, document: SUBMITTED }, ['METADATA_WRITE_DISABLED'])).toEqual({ status: byId(APPROVED), source: 'budget' });
    expect(lockingStatus(user, { budget: IN_PREPARATION, document: SUBMITTED }, ['METADATA_WRITE_DISABLED'])).toEqual({
      status: byId(SUBMITTED),
      source: 'document',
    });
    expect(lockingStatus(user, { budget: HIDDEN, document: null }, ['READ_DISABLED'])).toEqual({ status: byId(HIDDEN), source: 'budget' });
    expect(lockingStatus(user, { budget: IN_PREPARATION, document: null }, ['METADATA_WRITE_DISABLED'])).toBeNull();
    expect(lockingStatus(user, { document: 'not-in-this-organisation' }, ['METADATA_WRITE_DISABLED'])).toBeNull();
  });
});
