/** Zoom limits of the tree canvas (small enough that "fit" shows a map of thousands of nodes whole). */
export const MIN_SCALE = 0.005;
export const MAX_SCALE = 2.5;

/**
 * The zoom `k` as the canvas's controls show it: a whole percentage, or "<1%" for a map of thousands of nodes
 * fitted whole (rounding would say 0%, as if nothing were shown).
 */
export function zoomPercent(k: number): string {
  return k < 0.005 ? '<1%' : `${Math.round(k * 100)}%`;
}

/** A rectangle in map units. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Pan and zoom of the tree canvas: a screen point (sx, sy) shows the map point ((sx - x) / k, (sy - y) / k).
 * The canvas draws one `transform` from these three numbers, so panning a 500-node map moves one group.
 */
export class Viewport {
  x = $state(0);
  y = $state(0);
  k = $state(1);

  /** The SVG transform that applies this viewport. */
  get transform(): string {
    return `translate(${this.x} ${this.y}) scale(${this.k})`;
  }

  /** Moves the map by a screen distance. */
  panBy(dx: number, dy: number): void {
    this.x += dx;
    this.y += dy;
  }

  /** Zooms by `factor` keeping the screen point (sx, sy) over the same map point. */
  zoomAt(sx: number, sy: number, factor: number): void {
    // Below MIN_SCALE only where "fit" put it: zooming out stops there, zooming in goes on as usual.
    const k = Math.min(MAX_SCALE, Math.max(Math.min(MIN_SCALE, this.k), this.k * factor));
    const applied = k / this.k;
    this.x = sx - (sx - this.x) * applied;
    this.y = sy - (sy - this.y) * applied;
    this.k = k;
  }

  /** Shows all of `box` inside a screen of `width` × `height`, never zooming in past 1 (and out as far as it takes). */
  fit(box: Box, width: number, height: number, margin = 32): void {
    if (box.width <= 0 || box.height <= 0 || width <= 0 || height <= 0) {
      this.x = margin - box.x;
      this.y = height / 2 - box.y;
      this.k = 1;
      return;
    }
    const k = Math.min(
      1,
      Math.max(1e-4, Math.min((width - 2 * margin) / box.width, (height - 2 * margin) / box.height)),
    );
    this.k = k;
    this.x = (width - box.width * k) / 2 - box.x * k;
    this.y = (height - box.height * k) / 2 - box.y * k;
  }

  /** Shows `box` at scale `k`, its left edge near the left of a screen `height` tall, vertically centred. */
  focus(box: Box, height: number, k: number, margin = 32): void {
    this.k = Math.min(MAX_SCALE, Math.max(MIN_SCALE, k));
    this.x = margin - box.x * this.k;
    this.y = height / 2 - (box.y + box.height / 2) * this.k;
  }

  /** Centres the map point (mx, my) on a screen of `width` × `height`, keeping the zoom. */
  centerOn(mx: number, my: number, width: number, height: number): void {
    this.x = width / 2 - mx * this.k;
    this.y = height / 2 - my * this.k;
  }

  /** The part of the map a screen of `width` × `height` shows, in map units. */
  visibleBox(width: number, height: number): Box {
    return { x: -this.x / this.k, y: -this.y / this.k, width: width / this.k, height: height / this.k };
  }

  /** Pans the least so that `box` is visible on a screen of `width` × `height`. */
  reveal(box: Box, width: number, height: number, margin = 24): void {
    const left = box.x * this.k + this.x;
    const top = box.y * this.k + this.y;
    const right = left + box.width * this.k;
    const bottom = top + box.height * this.k;
    if (left < margin) this.x += margin - left;
    else if (right > width - margin) this.x -= right - (width - margin);
    if (top < margin) this.y += margin - top;
    else if (bottom > height - margin) this.y -= bottom - (height - margin);
  }
}
