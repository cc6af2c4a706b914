import type { Box } from './viewport.svelte.ts';

/** Whether `outer` holds all of `inner`. */
export function covers(outer: Box, inner: Box): boolean {
  return (
    inner.x >= outer.x &&
    inner.y >= outer.y &&
    inner.x + inner.width <= outer.x + outer.width &&
    inner.y + inner.height <= outer.y + outer.height
  );
}

/** Whether two boxes overlap. */
export function intersects(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/**
 * The part of the map to keep drawn around what is in view: the view grown by `margin` of its larger side on
 * every side. Kept while the view stays inside it (a pan changes nothing drawn until it nears the edge), and
 * made again when the view leaves it or has become much smaller than it (after zooming in).
 */
export function renderWindow(current: Box | null, view: Box, margin = 0.75): Box {
  if (current && covers(current, view) && current.width * current.height <= 16 * view.width * view.height)
    return current;
  const grow = Math.max(view.width, view.height) * margin;
  return { x: view.x - grow, y: view.y - grow, width: view.width + 2 * grow, height: view.height + 2 * grow };
}
