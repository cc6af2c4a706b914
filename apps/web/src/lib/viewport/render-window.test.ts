import { describe, expect, it } from 'vitest';
import { intersects, renderWindow } from './render-window.ts';

describe('renderWindow', () => {
  const view = { x: 0, y: 0, width: 100, height: 50 };

  it('should draw a margin round the view and keep it while the view pans inside it', () => {
    const first = renderWindow(null, view);
    expect(first).toEqual({ x: -75, y: -75, width: 250, height: 200 });
    expect(renderWindow(first, { ...view, x: 40, y: 20 })).toBe(first);
  });

  it('should move on when the view leaves it, and shrink after zooming far in', () => {
    const first = renderWindow(null, view);
    expect(renderWindow(first, { ...view, x: 200 })).not.toBe(first);
    expect(renderWindow(first, { x: 0, y: 0, width: 10, height: 5 }).width).toBe(25);
  });

  it('should tell overlapping boxes', () => {
    expect(intersects(view, { x: 99, y: 49, width: 10, height: 10 })).toBe(true);
    expect(intersects(view, { x: 100, y: 0, width: 10, height: 10 })).toBe(false);
  });
});
