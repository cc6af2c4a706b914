/**
 * How much a card shows at a zoom: everything when it can be read, the question alone when it gets small,
 * and a coloured block (its status) when the whole map is in view. Cards that simplify keep a big map
 * legible and cheap to draw.
 */
export type DetailLevel = 'full' | 'compact' | 'overview';

/** The smallest zoom at which a card shows everything, its fold handle and conclusion pill included. */
const FULL_DETAIL_SCALE = 0.6;

/** The detail level at zoom `k` (1 is full size). */
export function detailLevel(k: number): DetailLevel {
  if (k >= FULL_DETAIL_SCALE) return 'full';
  if (k >= 0.3) return 'compact';
  return 'overview';
}

/**
 * The zoom a card's touch targets (fold handle, conclusion pill) are sized for, so that they stay a finger's
 * size on screen: `k` rounded down to a tenth (a target sized for it is never smaller than meant, and the
 * cards are restyled only when a tenth is crossed, not on every frame of a pinch), never below the zoom at
 * which those targets show.
 */
export function touchTargetScale(k: number): number {
  return Math.max(FULL_DETAIL_SCALE, Math.floor(k * 10 + 1e-9) / 10);
}
