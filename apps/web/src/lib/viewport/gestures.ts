/** What a gesture on the canvas does. */
export interface GestureHandlers {
  /** Moves the map by a screen distance. */
  pan(dx: number, dy: number): void;
  /** Zooms by `factor` around the screen point (sx, sy). */
  zoom(sx: number, sy: number, factor: number): void;
  /** A press that did not move: a click or a tap on `target`. */
  tap(target: EventTarget | null): void;
}

/** How far a pointer may move (in pixels, summed) and still count as a tap. */
const TAP_SLOP = 6;

/**
 * Mouse, pen and touch on the canvas as one set of gestures, from pointer events: one pointer drags the map,
 * two pinch to zoom around their middle while moving it with them, a press that stays put is a tap. The
 * points are screen coordinates relative to the canvas.
 */
export class Gestures {
  #pointers = new Map<number, { x: number; y: number }>();
  #moved = 0;
  #multi = false;
  #target: EventTarget | null = null;

  constructor(private readonly handlers: GestureHandlers) {}

  /** Whether a drag or pinch is under way (a tap is not yet decided). */
  get active(): boolean {
    return this.#moved > TAP_SLOP || this.#multi;
  }

  /** A pointer went down. */
  down(id: number, x: number, y: number, target: EventTarget | null): void {
    if (this.#pointers.size === 0) {
      this.#moved = 0;
      this.#multi = false;
      this.#target = target;
    }
    this.#pointers.set(id, { x, y });
    if (this.#pointers.size > 1) this.#multi = true;
  }

  /** A pointer moved. */
  move(id: number, x: number, y: number): void {
    const last = this.#pointers.get(id);
    if (!last) return;
    if (this.#pointers.size === 1) {
      const dx = x - last.x;
      const dy = y - last.y;
      this.#moved += Math.abs(dx) + Math.abs(dy);
      this.#pointers.set(id, { x, y });
      if (this.#moved > TAP_SLOP) this.handlers.pan(dx, dy);
      return;
    }
    const [a, b] = [...this.#pointers.entries()];
    const other = a![0] === id ? b![1] : a![1];
    const before = { mid: midpoint(last, other), distance: distance(last, other) };
    this.#pointers.set(id, { x, y });
    const after = { mid: midpoint({ x, y }, other), distance: distance({ x, y }, other) };
    if (before.distance > 0 && after.distance > 0)
      this.handlers.zoom(before.mid.x, before.mid.y, after.distance / before.distance);
    this.handlers.pan(after.mid.x - before.mid.x, after.mid.y - before.mid.y);
  }

  /** A pointer went up; a press that did not move is a tap. */
  up(id: number): void {
    if (!this.#pointers.delete(id)) return;
    if (this.#pointers.size === 0 && !this.active) this.handlers.tap(this.#target);
  }

  /** A pointer was taken away (the browser cancelled it): no tap. */
  cancel(id: number): void {
    this.#pointers.delete(id);
    this.#multi = true;
  }
}

function midpoint(a: { x: number; y: number }, b: { x: number; y: number }) {
  return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
}

function distance(a: { x: number; y: number }, b: { x: number; y: number }) {
  return Math.hypot(a.x - b.x, a.y - b.y);
}
