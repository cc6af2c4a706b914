import { MediaQuery } from 'svelte/reactivity';

/**
 * The width below which the workspace is laid out for a phone (header menu, bottom sheet, one view at a time).
 * The stylesheets use the same value in their `@media (max-width: 719px)` rules.
 */
export const NARROW_MAX_WIDTH = 719;

let narrowQuery: MediaQuery | null = null;

/** Whether the screen is phone-sized now (reactive; false where there is no window). */
export function isNarrow(): boolean {
  if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return false;
  narrowQuery ??= new MediaQuery(`max-width: ${NARROW_MAX_WIDTH}px`);
  return narrowQuery.current;
}
