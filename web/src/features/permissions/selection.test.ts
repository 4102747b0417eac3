import { describe, expect, it } from 'vitest';
import { pickValid } from './selection';

describe('pickValid', () => {
  it('keeps a requested id of the list, and otherwise takes the first', () => {
    expect(pickValid('b', ['a', 'b'])).toBe('b');
    expect(pickValid('x', ['a', 'b'])).toBe('a');
    expect(pickValid(null, ['a', 'b'])).toBe('a');
  });

  it('waits while the list loads and gives null for an empty one', () => {
    expect(pickValid('a', undefined)).toBeUndefined();
    expect(pickValid('a', [])).toBeNull();
  });
});
