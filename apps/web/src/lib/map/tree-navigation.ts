import type { PlacedNode } from './tree-layout.ts';

/** Keys that move the focus through the tree. */
export type NavigationKey = 'ArrowLeft' | 'ArrowRight' | 'ArrowUp' | 'ArrowDown' | 'Home' | 'End';

/**
 * The node to focus after pressing `key` on `currentId`: Left goes to the parent, Right to the first
 * child, Up and Down to the node above or below in the same column, Home to the root, End to the last
 * node of the deepest column. Returns null when there is nowhere to go.
 */
export function navigateTree(
  placed: readonly PlacedNode[],
  currentId: string | null,
  key: NavigationKey,
): string | null {
  if (!placed.length) return null;
  const current = currentId ? placed.find((p) => p.node.id === currentId) : undefined;
  if (!current || key === 'Home') return placed[0]!.node.id;
  switch (key) {
    case 'ArrowLeft':
      return current.node.parentId && placed.some((p) => p.node.id === current.node.parentId)
        ? current.node.parentId
        : null;
    case 'ArrowRight': {
      const children = placed.filter((p) => p.node.parentId === current.node.id).sort((a, b) => a.y - b.y);
      return children[0]?.node.id ?? null;
    }
    case 'ArrowUp':
    case 'ArrowDown': {
      const column = placed.filter((p) => p.depth === current.depth).sort((a, b) => a.y - b.y);
      const index = column.indexOf(current) + (key === 'ArrowDown' ? 1 : -1);
      return column[index]?.node.id ?? null;
    }
    case 'End': {
      const deepest = Math.max(...placed.map((p) => p.depth));
      const column = placed.filter((p) => p.depth === deepest).sort((a, b) => a.y - b.y);
      return column.at(-1)?.node.id ?? null;
    }
  }
}
