import { describe, expect, it } from 'vitest';
import { componentBlock, componentNames } from './components';

const node = (id: string, childrenIds: string[] = [], descendantIds: string[] = childrenIds, read = true) => ({
  id,
  name: id.toUpperCase(),
  childrenIds,
  descendantIds,
  permissions: { read, update: true, restrictions: [] },
});

describe('sum budget components (spec 2, sections 2 and 5)', () => {
  const hierarchy = [node('a'), node('b'), node('s', ['a', 'b']), node('t', ['s'], ['s', 'a', 'b']), node('hidden', [], [], false)];

  it('joins the component names with "; "', () => {
    expect(componentNames(node('x', ['a', 'b']), hierarchy)).toBe('A; B');
    expect(componentNames(node('x'), hierarchy)).toBe('');
  });

  it('disables a budget that cannot be read or that a chosen budget already adds up', () => {
    expect(componentBlock(hierarchy[4]!, [], hierarchy)).toBe('readDisabled');
    expect(componentBlock(hierarchy[0]!, ['s'], hierarchy)).toBe('inSelected');
    expect(componentBlock(hierarchy[2]!, ['t'], hierarchy)).toBe('inSelected');
    expect(componentBlock(hierarchy[0]!, ['b'], hierarchy)).toBeNull();
    // A chosen budget stays changeable.
    expect(componentBlock(hierarchy[0]!, ['a', 's'], hierarchy)).toBeNull();
  });
});
