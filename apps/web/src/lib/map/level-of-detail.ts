/**
 * How much a card shows at a zoom: everything when it can be read, the question alone when it gets small,
 * and a coloured block (its status) when the whole map is in view. Cards that simplify keep a big map
 * legible and cheap to draw.
 */
export type DetailLevel = 'full' | 'compact' | 'overview';

/** The detail level at zoom `k` (1 is full size). */
export function detailLevel(k: number): DetailLevel {
  if (k >= 0.6) return 'full';
  if (k >= 0.3) return 'compact';
  return 'overview';
}
