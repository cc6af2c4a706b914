import { describe, expect, it } from 'vitest';
import { type CardBox, columnsOf, routeDependency } from './dependency-route.ts';

const W = 200;
const H = 60;
const GAP = 80;
const card = (depth: number, y: number): CardBox => ({ x: depth * (W + GAP), y, width: W, height: H, depth });

/** Whether the segment from p to q passes through the inside of `box` (touching its edge does not count). */
function crosses([px, py]: [number, number], [qx, qy]: [number, number], box: CardBox): boolean {
  for (let t = 0; t <= 1; t += 1 / 200) {
    const x = px + (qx - px) * t;
    const y = py + (qy - py) * t;
    if (x > box.x + 0.5 && x < box.x + box.width - 0.5 && y > box.y + 0.5 && y < box.y + box.height - 0.5) return true;
  }
  return false;
}

function crossesAny(points: [number, number][], boxes: CardBox[]): boolean {
  return points.slice(1).some((q, i) => boxes.some((box) => crosses(points[i]!, q, box)));
}

describe('routeDependency', () => {
  it('should go round the cards of the columns in between instead of through them', () => {
    const from = card(0, 100);
    const to = card(2, 100);
    const blockers = [card(1, 40), card(1, 120), card(1, 200)];
    const columns = columnsOf([from, to, ...blockers], GAP);
    const { points, path } = routeDependency(from, to, columns);
    expect(crossesAny(points, blockers)).toBe(false);
    expect(points[0]).toEqual([W, 100 + H / 2 + 14]);
    expect(points.at(-1)).toEqual([2 * (W + GAP), 100 + H / 2 + 14]);
    expect(path.startsWith('M200,144')).toBe(true);
  });

  it('should take the free gap nearest the two ends when the column between has one', () => {
    const from = card(0, 0);
    const to = card(2, 400);
    const blockers = [card(1, 0), card(1, 100), card(1, 300)];
    const { points } = routeDependency(from, to, columnsOf([from, to, ...blockers], GAP));
    expect(crossesAny(points, blockers)).toBe(false);
    const corridorY = points[2]![1];
    expect(corridorY).toBeGreaterThanOrEqual(160 + 6);
    expect(corridorY).toBeLessThanOrEqual(300 - 6);
  });

  it('should connect cards of one column through the gap on their right, and go backwards too', () => {
    const a = card(1, 0);
    const b = card(1, 200);
    const between = card(1, 100);
    const columns = columnsOf([a, b, between], GAP);
    const same = routeDependency(a, b, columns);
    expect(crossesAny(same.points, [between])).toBe(false);
    expect(Math.min(...same.points.map(([x]) => x))).toBe(a.x + W);

    const back = routeDependency(card(2, 0), card(0, 0), columnsOf([card(2, 0), card(0, 0), card(1, 0)], GAP));
    expect(crossesAny(back.points, [card(1, 0)])).toBe(false);
    expect(back.points.at(-1)![0]).toBe(W);
  });

  it('should spread dependencies sharing a gap into lanes', () => {
    const from = card(0, 0);
    const to = card(1, 200);
    const columns = columnsOf([from, to], GAP);
    expect(routeDependency(from, to, columns, 0).points[1]![0]).not.toBe(
      routeDependency(from, to, columns, 1).points[1]![0],
    );
  });
});
