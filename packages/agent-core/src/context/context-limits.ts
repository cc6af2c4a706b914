/**
 * The explicit rules that bound a node's context, so a prompt never grows with the map. Applied in this
 * order by `collectNodeContext`:
 * 1. Each text field is cut to its own cap (questions and goals, conclusions, messages, context items), with
 *    an ellipsis, and the cut is noted.
 * 2. Lists are capped: the first `MAX_DEPENDENCIES` dependencies, the first `MAX_CHILDREN` children, the
 *    last `RECENT_MESSAGES` messages, the newest `MAX_CONTEXT_ITEMS` context items.
 * 3. If the whole still exceeds `MAX_CONTEXT_CHARS`, drop, one at a time: the oldest message (keeping the
 *    last `MIN_MESSAGES_KEPT`), then the oldest context item (keeping one), then children's conclusions are
 *    cut to `SQUEEZED_CONCLUSION_CHARS`. What was dropped is listed in `omissions`, which prompts show.
 * The node's own question, goal and constraints, and the parent's, are never dropped.
 */
export const CONTEXT_LIMITS = {
  /** Messages of the node's conversation included (the design's "last 10"). */
  RECENT_MESSAGES: 10,
  MIN_MESSAGES_KEPT: 2,
  MAX_DEPENDENCIES: 8,
  MAX_CHILDREN: 12,
  MAX_CONTEXT_ITEMS: 10,
  /** Caps per field, in characters. */
  QUESTION_CHARS: 500,
  GOAL_CHARS: 500,
  CONSTRAINT_CHARS: 200,
  CONCLUSION_CHARS: 1500,
  SQUEEZED_CONCLUSION_CHARS: 300,
  MESSAGE_CHARS: 800,
  CONTEXT_ITEM_CHARS: 1500,
  /** Cap of the whole context, in characters (about 4,000 tokens of English, fewer of Chinese). */
  MAX_CONTEXT_CHARS: 16_000,
} as const;

/** Cuts `text` to `max` characters with an ellipsis; reports whether it cut. */
export function clip(text: string, max: number): { text: string; clipped: boolean } {
  const chars = [...text];
  if (chars.length <= max) return { text, clipped: false };
  return { text: `${chars.slice(0, max - 1).join('')}…`, clipped: true };
}
