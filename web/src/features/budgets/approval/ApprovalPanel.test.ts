import { describe, expect, it } from 'vitest';
import { availableActions } from './ApprovalPanel';

describe('availableActions (default route)', () => {
  it('offers submit from draft and sent back to whoever may update', () => {
    expect(availableActions('DRAFT', true, [])).toEqual(['SUBMIT']);
    expect(availableActions('SENT_BACK', true, [])).toEqual(['SUBMIT']);
    expect(availableActions('SUBMITTED', true, [])).toEqual([]);
  });

  it('offers approve and send back on a submitted budget, reopen on an approved one, to status administrators', () => {
    expect(availableActions('SUBMITTED', true, ['STATUS_ADMIN'])).toEqual(['APPROVE', 'SEND_BACK']);
    expect(availableActions('APPROVED', true, ['STATUS_ADMIN'])).toEqual(['REOPEN']);
    expect(availableActions('APPROVED', true, [])).toEqual([]);
  });

  it('offers nothing to a reader', () => {
    expect(availableActions('DRAFT', false, ['STATUS_ADMIN'])).toEqual([]);
    expect(availableActions('SUBMITTED', false, ['STATUS_ADMIN'])).toEqual([]);
  });
});
