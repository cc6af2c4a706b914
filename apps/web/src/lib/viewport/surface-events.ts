import { Gestures } from './gestures.ts';

/** What the canvas does with the pointer, click and wheel input on its surface. */
export interface SurfaceHandlers {
  /** Moves the map by a screen distance (a drag or a wheel). */
  pan(dx: number, dy: number): void;
  /** Zooms by `factor` around the screen point (sx, sy): a pinch, Ctrl/⌘ + wheel, a trackpad pinch. */
  zoom(sx: number, sy: number, factor: number): void;
  /** A press that did not move, acted on at its click: `target` is what was clicked. */
  tap(target: Element | null): void;
  /** The card under the pointer changed (its id, or null). */
  hover(id: string | null): void;
}

/** The id of the card an event happened on, if any. */
export function cardOf(event: Event): string | null {
  const target = event.target instanceof Element ? event.target : null;
  return target?.closest('[data-node-id]')?.getAttribute('data-node-id') ?? null;
}

/**
 * The canvas surface's pointer, click and wheel listeners as one attachment, with the gestures they feed. The
 * wheel listener is not passive, so a wheel pans or zooms the map instead of scrolling the page. A tap is acted
 * on at its click, so a panel opening under a finger gets no stray click.
 */
export function surfaceEvents(handlers: SurfaceHandlers) {
  let tapped = false;
  const gestures = new Gestures({
    pan: handlers.pan,
    zoom: handlers.zoom,
    tap: () => {
      tapped = true;
    },
  });

  function attach(element: HTMLElement) {
    const local = (event: PointerEvent | WheelEvent) => {
      const rect = element.getBoundingClientRect();
      return [event.clientX - rect.left, event.clientY - rect.top] as const;
    };
    const onPointerDown = (event: PointerEvent) => {
      tapped = false;
      if (event.pointerType === 'mouse' && event.button !== 0) return;
      if (event.target instanceof Element && event.target.closest('.pop')) return;
      const [x, y] = local(event);
      gestures.down(event.pointerId, x, y, event.target);
    };
    const onPointerMove = (event: PointerEvent) => {
      const [x, y] = local(event);
      gestures.move(event.pointerId, x, y);
      if (gestures.active && !element.hasPointerCapture(event.pointerId)) element.setPointerCapture(event.pointerId);
    };
    const onClick = (event: MouseEvent) => {
      if (!tapped) return;
      tapped = false;
      handlers.tap(event.target instanceof Element ? event.target : null);
    };
    const onWheel = (event: WheelEvent) => {
      event.preventDefault();
      const [x, y] = local(event);
      // Pinching a trackpad and Ctrl/⌘ + wheel zoom; plain scrolling pans, as in other canvases.
      if (event.ctrlKey || event.metaKey) handlers.zoom(x, y, Math.exp(-event.deltaY * 0.01));
      else
        handlers.pan(
          -(event.shiftKey && !event.deltaX ? event.deltaY : event.deltaX),
          event.shiftKey ? 0 : -event.deltaY,
        );
    };
    const controller = new AbortController();
    const options = { signal: controller.signal };
    element.addEventListener('pointerdown', onPointerDown, options);
    element.addEventListener('pointermove', onPointerMove, options);
    element.addEventListener('pointerup', (event) => gestures.up(event.pointerId), options);
    element.addEventListener('pointercancel', (event) => gestures.cancel(event.pointerId), options);
    element.addEventListener('pointerover', (event) => handlers.hover(cardOf(event)), options);
    element.addEventListener('pointerleave', () => handlers.hover(null), options);
    element.addEventListener('click', onClick, options);
    element.addEventListener('wheel', onWheel, { signal: controller.signal, passive: false });
    return () => controller.abort();
  }

  return { gestures, attach };
}
