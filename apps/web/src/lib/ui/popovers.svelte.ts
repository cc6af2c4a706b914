/**
 * Which of the page's popovers (the header's panels and menus) is open: opening one closes the others, so two
 * never lie on top of each other.
 */
class Popovers {
  /** The key of the popover open now, or null. */
  current = $state<string | null>(null);

  /** Marks `key` open: any other popover open now closes. */
  claim(key: string): void {
    this.current = key;
  }

  /** Marks `key` closed, if it is the one open. */
  release(key: string): void {
    if (this.current === key) this.current = null;
  }
}

export const popovers = new Popovers();

/**
 * Keeps one popover in step with the others (call in a component's script): `key` names it, `isOpen` reads
 * whether it is open, `close` closes it when another opens.
 */
export function onePopoverAtATime(key: () => string, isOpen: () => boolean, close: () => void): void {
  $effect(() => {
    if (isOpen()) popovers.claim(key());
    else popovers.release(key());
  });
  $effect(() => {
    const current = popovers.current;
    if (current !== null && current !== key() && isOpen()) close();
  });
}
