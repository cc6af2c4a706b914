import { describe, expect, it } from 'vitest';
import { MAX_SCALE, MIN_SCALE, Viewport, zoomPercent } from './viewport.svelte.ts';

const toMap = (v: Viewport, sx: number, sy: number) => [(sx - v.x) / v.k, (sy - v.y) / v.k];

describe('Viewport', () => {
  it('should keep the point under the pointer fixed while zooming', () => {
    const v = new Viewport();
    v.panBy(40, -20);
    const before = toMap(v, 300, 200);
    v.zoomAt(300, 200, 1.7);
    const after = toMap(v, 300, 200);
    expect(after[0]).toBeCloseTo(before[0]!);
    expect(after[1]).toBeCloseTo(before[1]!);
  });

  it('should clamp the zoom', () => {
    const v = new Viewport();
    v.zoomAt(0, 0, 1000);
    expect(v.k).toBe(MAX_SCALE);
    v.zoomAt(0, 0, 1e-6);
    expect(v.k).toBe(MIN_SCALE);
  });

  it('should fit a box inside the screen and centre it, never enlarging past 1', () => {
    const v = new Viewport();
    v.fit({ x: 100, y: -50, width: 2000, height: 500 }, 1000, 600, 0);
    expect(v.k).toBeCloseTo(0.5);
    expect(v.x + 100 * v.k).toBeCloseTo(0);
    expect(v.y + -50 * v.k + 250 * v.k).toBeCloseTo(300);
    v.fit({ x: 0, y: 0, width: 10, height: 10 }, 1000, 600);
    expect(v.k).toBe(1);
  });

  it('should pan just enough to reveal a box', () => {
    const v = new Viewport();
    v.reveal({ x: 1100, y: 10, width: 100, height: 20 }, 1000, 600, 0);
    expect(v.x).toBe(-200);
    expect(v.y).toBe(0);
  });

  it('should fit a map of thousands of nodes whole, however tall', () => {
    const v = new Viewport();
    v.fit({ x: 0, y: 0, width: 1600, height: 160_000 }, 1000, 700);
    expect(160_000 * v.k).toBeLessThanOrEqual(700);
  });

  it('should centre a point and say what part of the map is in view', () => {
    const v = new Viewport();
    v.zoomAt(0, 0, 0.5);
    v.centerOn(400, 300, 1000, 600);
    expect(v.visibleBox(1000, 600)).toEqual({ x: -600, y: -300, width: 2000, height: 1200 });
  });

  it('should express itself as one transform', () => {
    const v = new Viewport();
    v.panBy(5, 6);
    expect(v.transform).toBe('translate(5 6) scale(1)');
  });
});

describe('zoomPercent', () => {
  it('should show whole percentages, and less than one per cent instead of 0%', () => {
    expect(zoomPercent(1)).toBe('100%');
    expect(zoomPercent(0.376)).toBe('38%');
    expect(zoomPercent(0.005)).toBe('1%');
    expect(zoomPercent(0.003)).toBe('<1%');
  });
});
