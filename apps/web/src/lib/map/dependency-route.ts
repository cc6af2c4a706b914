/** A card's box on the map (x, y: its top-left corner) and the column (depth) it stands in. */
export interface CardBox {
  x: number;
  y: number;
  width: number;
  height: number;
  depth: number;
}

/** The cards of each column, top to bottom, and the free gap between neighbouring columns. */
export interface Columns {
  /** Each column's occupied spans [top, bottom], sorted. */
  spans: Map<number, [number, number][]>;
  /** The horizontal gap between two columns, in map units. */
  gap: number;
}

/** A routed dependency: its corner points and the SVG path through them (rounded corners). */
export interface Route {
  points: [number, number][];
  path: string;
}

/** How far a line keeps from a card it passes. */
const CLEARANCE = 6;
/** How far below a card's middle a dependency leaves and arrives, so it does not run on the parent–child edge. */
const OFFSET = 14;

/** Groups cards into columns of sorted vertical spans. */
export function columnsOf(cards: Iterable<CardBox>, gap: number): Columns {
  const spans = new Map<number, [number, number][]>();
  for (const card of cards) {
    const list = spans.get(card.depth);
    const span: [number, number] = [card.y, card.y + card.height];
    if (list) list.push(span);
    else spans.set(card.depth, [span]);
  }
  for (const list of spans.values()) list.sort((a, b) => a[0] - b[0]);
  return { spans, gap };
}

/**
 * The height at which a line can cross columns `from`…`to` (exclusive of both) without touching a card,
 * nearest to lying between `y1` and `y2`. Every column is free above its first and below its last card,
 * so there is always one.
 */
function corridor(columns: Columns, depths: number[], y1: number, y2: number): number {
  const blocked = depths
    .flatMap((depth) => columns.spans.get(depth) ?? [])
    .map(([top, bottom]): [number, number] => [top - CLEARANCE, bottom + CLEARANCE])
    .sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const span of blocked) {
    const last = merged.at(-1);
    if (last && span[0] <= last[1]) last[1] = Math.max(last[1], span[1]);
    else merged.push([...span]);
  }
  const low = Math.min(y1, y2);
  const high = Math.max(y1, y2);
  const middle = (y1 + y2) / 2;
  const free: [number, number][] = [];
  let from = -Infinity;
  for (const [top, bottom] of merged) {
    if (top > from) free.push([from, top]);
    from = Math.max(from, bottom);
  }
  free.push([from, Infinity]);
  let best = middle;
  let bestCost = Infinity;
  for (const [top, bottom] of free) {
    const y =
      bottom < low ? bottom : top > high ? top : Math.min(Math.max(middle, Math.max(top, low)), Math.min(bottom, high));
    const cost = Math.abs(y - y1) + Math.abs(y - y2) + Math.abs(y - middle) / 1000;
    if (cost < bestCost) {
      best = y;
      bestCost = cost;
    }
  }
  return best;
}

/**
 * Routes a dependency from the card it waits for (`from`) to the card that waits (`to`) through the free space
 * of the tree: out into the gap beside `from`'s column, along a height where no card stands in the columns
 * between, and into `to` from the side facing it. Cards in one column connect through the gap on their right.
 * `lane` spreads several dependencies sharing a gap so their vertical runs do not lie on top of each other.
 */
export function routeDependency(from: CardBox, to: CardBox, columns: Columns, lane = 0): Route {
  const step = Math.min(columns.gap / 2 - 10, 14 + (lane % 6) * 7);
  const fy = from.y + from.height / 2 + OFFSET;
  const ty = to.y + to.height / 2 + OFFSET;
  let points: [number, number][];
  if (from.depth === to.depth) {
    const right = Math.max(from.x + from.width, to.x + to.width);
    const x = right + step;
    points = [
      [from.x + from.width, fy],
      [x, fy],
      [x, ty],
      [to.x + to.width, ty],
    ];
  } else {
    const forward = to.depth > from.depth;
    const exitX = forward ? from.x + from.width : from.x;
    const enterX = forward ? to.x : to.x + to.width;
    const firstGap = forward ? exitX + step : exitX - step;
    const lastGap = forward ? enterX - columns.gap + step : enterX + columns.gap - step;
    const between: number[] = [];
    for (let d = from.depth + (forward ? 1 : -1); d !== to.depth; d += forward ? 1 : -1) between.push(d);
    if (between.length === 0) {
      points = [
        [exitX, fy],
        [firstGap, fy],
        [firstGap, ty],
        [enterX, ty],
      ];
    } else {
      const y = corridor(columns, between, fy, ty);
      points = [
        [exitX, fy],
        [firstGap, fy],
        [firstGap, y],
        [lastGap, y],
        [lastGap, ty],
        [enterX, ty],
      ];
    }
  }
  return { points, path: roundedPath(points) };
}

/** An SVG path through `points` with its corners rounded (radius up to 10, less on short segments). */
export function roundedPath(points: readonly [number, number][]): string {
  const round = (v: number) => Math.round(v * 10) / 10;
  const first = points[0]!;
  let d = `M${round(first[0])},${round(first[1])}`;
  for (let i = 1; i < points.length - 1; i++) {
    const [px, py] = points[i - 1]!;
    const [cx, cy] = points[i]!;
    const [nx, ny] = points[i + 1]!;
    const r = Math.min(10, Math.hypot(cx - px, cy - py) / 2, Math.hypot(nx - cx, ny - cy) / 2);
    const toward = (ax: number, ay: number, length: number): [number, number] => {
      const l = Math.hypot(ax - cx, ay - cy) || 1;
      return [cx + ((ax - cx) / l) * length, cy + ((ay - cy) / l) * length];
    };
    const [sx, sy] = toward(px, py, r);
    const [ex, ey] = toward(nx, ny, r);
    d += ` L${round(sx)},${round(sy)} Q${round(cx)},${round(cy)} ${round(ex)},${round(ey)}`;
  }
  const last = points.at(-1)!;
  return `${d} L${round(last[0])},${round(last[1])}`;
}
