import { isOneOf } from '@thinkingmap/db/enums';
import type { PlacedNode } from './tree-layout.ts';

/** Keys that move the focus through the tree. */
export const NAVIGATION_KEYS = ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End'] as const;
/** One of {@link NAVIGATION_KEYS}. */
export type NavigationKey = (typeof NAVIGATION_KEYS)[number];

/** Whether a pressed key moves the focus through the tree. */
export const isNavigationKey = (key: string): key is NavigationKey => isOneOf(NAVIGATION_KEYS, key);

/**
 * The node to focus after pressing `key` on `currentId` on the canvas: Left goes to the parent, Right to the
 * first child, Up and Down to the card above or below in the same column, Home to the root, End to the last
 * card of the deepest column. Ghost cards (proposals) are skipped. Returns null when there is nowhere to go.
 * (Folding with Left and Right on an open or folded node is the canvas's part, as in an ARIA tree.)
 */
export function navigateTree(
  placed: readonly PlacedNode[],
  currentId: string | null,
  key: NavigationKey,
): string | null {
  const cards = placed.filter((p) => !p.ghost);
  if (!cards.length) return null;
  const current = currentId ? cards.find((p) => p.id === currentId) : undefined;
  if (!current || key === 'Home') return cards[0]!.id;
  switch (key) {
    case 'ArrowLeft':
      return current.parentId && cards.some((p) => p.id === current.parentId) ? current.parentId : null;
    case 'ArrowRight': {
      const children = cards.filter((p) => p.parentId === current.id).sort((a, b) => a.y - b.y);
      return children[0]?.id ?? null;
    }
    case 'ArrowUp':
    case 'ArrowDown': {
      const column = cards.filter((p) => p.depth === current.depth).sort((a, b) => a.y - b.y);
      const index = column.indexOf(current) + (key === 'ArrowDown' ? 1 : -1);
      return column[index]?.id ?? null;
    }
    case 'End': {
      const deepest = Math.max(...cards.map((p) => p.depth));
      const column = cards.filter((p) => p.depth === deepest).sort((a, b) => a.y - b.y);
      return column.at(-1)?.id ?? null;
    }
  }
}
