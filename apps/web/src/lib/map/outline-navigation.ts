import type { TreeRow } from './visible-tree.ts';

/** What a key does in the outline: move the focus to a row, or fold or unfold one. */
export type OutlineMove = { focus: string } | { fold: string } | { unfold: string } | null;

/**
 * The WAI-ARIA tree pattern over the outline's shown rows: Up and Down go to the row above or below, Right
 * unfolds a folded node or goes to its first child, Left folds an open node or goes to the parent, Home and
 * End go to the first and last row. Returns null when there is nowhere to go.
 */
export function outlineMove(
  rows: readonly TreeRow[],
  folded: ReadonlySet<string>,
  currentId: string | null,
  key: string,
): OutlineMove {
  if (!rows.length) return null;
  const index = rows.findIndex((row) => row.node.id === currentId);
  const row = rows[index];
  const focus = (target: TreeRow | undefined): OutlineMove => (target ? { focus: target.node.id } : null);
  if (!row || key === 'Home') return focus(rows[0]);
  switch (key) {
    case 'ArrowDown':
      return focus(rows[index + 1]);
    case 'ArrowUp':
      return focus(rows[index - 1]);
    case 'End':
      return focus(rows.at(-1));
    case 'ArrowRight':
      if (!row.childCount) return null;
      return folded.has(row.node.id) ? { unfold: row.node.id } : focus(rows[index + 1]);
    case 'ArrowLeft':
      if (row.childCount && !folded.has(row.node.id)) return { fold: row.node.id };
      return focus(rows.find((r) => r.node.id === row.node.parentId));
    default:
      return null;
  }
}
