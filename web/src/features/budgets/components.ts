import type { BudgetHierarchyNode } from '@eelarve/shared';

/** Why a budget cannot be (un)chosen as a sum budget's component, or null when it can (spec 2, section 5). */
export type ComponentBlock = 'readDisabled' | 'inSelected' | null;

type Node = Pick<BudgetHierarchyNode, 'id' | 'name' | 'childrenIds' | 'descendantIds' | 'permissions'>;

/** The names of a budget's direct components joined by "; " (spec 2, Budget form and list info). */
export function componentNames(node: Pick<Node, 'childrenIds'>, hierarchy: readonly Pick<Node, 'id' | 'name'>[]): string {
  const names = new Map(hierarchy.map((other) => [other.id, other.name]));
  return node.childrenIds
    .map((id) => names.get(id))
    .filter((name): name is string => name !== undefined)
    .join('; ');
}

/**
 * A component is disabled if its read is disabled, or if it is not chosen and a chosen budget
 * already adds it up (a chosen one stays changeable so that the choice can be undone).
 */
export function componentBlock(node: Node, chosen: readonly string[], hierarchy: readonly Node[]): ComponentBlock {
  if (!node.permissions.read) return 'readDisabled';
  if (chosen.includes(node.id)) return null;
  const addedUp = hierarchy.some((other) => chosen.includes(other.id) && other.descendantIds.includes(node.id));
  return addedUp ? 'inSelected' : null;
}
