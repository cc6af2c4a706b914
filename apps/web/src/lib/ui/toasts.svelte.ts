/** A short message shown over the page, with a link to where it is about. */
export interface Toast {
  id: number;
  text: string;
  href?: string;
  action?: string;
}

/** How long a toast stays, unless the pointer or focus rests on it. */
const LIFETIME_MS = 9_000;

/** The toasts on screen (newest last, at most three). */
export class Toasts {
  items = $state.raw<Toast[]>([]);
  #next = 1;
  #timers = new Map<number, ReturnType<typeof setTimeout>>();

  /** Shows a toast; it goes by itself after a while. Returns its id. */
  show(toast: Omit<Toast, 'id'>): number {
    const id = this.#next++;
    this.items = [...this.items, { ...toast, id }].slice(-3);
    this.#timers.set(
      id,
      setTimeout(() => this.dismiss(id), LIFETIME_MS),
    );
    return id;
  }

  /** Keeps a toast until it is dismissed (the person is reading it). */
  hold(id: number): void {
    clearTimeout(this.#timers.get(id));
    this.#timers.delete(id);
  }

  /** Removes a toast. */
  dismiss(id: number): void {
    this.hold(id);
    this.items = this.items.filter((toast) => toast.id !== id);
  }
}

/** The app's toasts. */
export const toasts = new Toasts();
