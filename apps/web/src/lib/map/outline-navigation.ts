import type { TreeRow } from './visible-tree.ts';

/** What a key does in the outline: move the focus to a row, or fold or unfold one. */
export type OutlineMove = { focus: string } | { fold: string } | { unfold: string } | null;

/**
 * The WAI-ARIA tree pattern over the outline's shown rows: Up and Down go to the row above or below, Right
 * unfolds a folded node or goes to its first child, Left folds an open node or goes to the parent, Home and
 * End go to the first and last row, Page Up and Page Down move `pageSize` rows (a screenful; they stop at the
 * first and last row). Returns null when there is nowhere to go.
 */
export function outlineMove(
  rows: readonly TreeRow[],
  folded: ReadonlySet<string>,
  currentId: string | null,
  key: string,
  pageSize = 1,
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
    case 'PageDown':
      return focus(rows[Math.min(rows.length - 1, index + Math.max(1, pageSize))]);
    case 'PageUp':
      return focus(rows[Math.max(0, index - Math.max(1, pageSize))]);
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

/** Whether `key` is a character typed to jump to a row (not Space, which selects, nor a shortcut). */
export function isTypeaheadKey(event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey'>): boolean {
  return [...event.key].length === 1 && event.key !== ' ' && !event.ctrlKey && !event.metaKey && !event.altKey;
}

/**
 * Type-to-jump of the WAI-ARIA tree pattern: the next shown row after the current one (round to the top)
 * whose question starts with `typed`, ignoring case. Typing one letter again and again steps through the
 * rows starting with it; several letters typed quickly narrow down from the current row itself. Null when no
 * row matches.
 */
export function typeaheadTarget(rows: readonly TreeRow[], currentId: string | null, typed: string): string | null {
  if (!typed || !rows.length) return null;
  const repeated = [...typed].every((char) => char === typed[0]);
  const prefix = (repeated ? typed[0]! : typed).toLocaleLowerCase();
  const index = Math.max(
    0,
    rows.findIndex((row) => row.node.id === currentId),
  );
  // One letter (or the same one again) starts after the current row; a longer prefix may keep it.
  const start = repeated ? index + 1 : index;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[(start + i) % rows.length]!;
    if (row.node.question.trimStart().toLocaleLowerCase().startsWith(prefix)) return row.node.id;
  }
  return null;
}

/** The letters typed for type-to-jump: a pause longer than `pauseMs` starts a new word. */
export class TypedLetters {
  #text = '';
  #at = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly pauseMs = 500,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Adds `key` and returns what has been typed since the last pause. */
  add(key: string): string {
    const now = this.now();
    this.#text = now - this.#at > this.pauseMs ? key : this.#text + key;
    this.#at = now;
    return this.#text;
  }
}
