/**
 * Orders items so that each comes after its parent when the parent is among them (otherwise keeping their
 * order): a recreated subtree finds its parent node, a recreated reply the message it answers.
 */
export function parentsFirst<T extends { id: string; parentId: string | null }>(items: readonly T[]): T[] {
  const byId = new Map(items.map((item) => [item.id, item]));
  const placed = new Set<string>();
  const ordered: T[] = [];
  for (const item of items) {
    // The item's ancestors among the items not placed yet, nearest first.
    const chain: T[] = [];
    for (let at: T | undefined = item; at && !placed.has(at.id); at = at.parentId ? byId.get(at.parentId) : undefined) {
      chain.push(at);
      placed.add(at.id);
    }
    ordered.push(...chain.reverse());
  }
  return ordered;
}
