/** How many recent announcements the live region keeps (older ones leave as new ones come). */
const KEPT = 4;

/**
 * What a screen reader hears from the app's live region: status changes, arrivals, the connection. Each
 * announcement is added as its own line, so several in a row (a node concluded, then an agent asks about its
 * parent) are all read, and the same text twice is read twice.
 */
export class Announcer {
  messages = $state.raw<{ id: number; text: string }[]>([]);
  #next = 1;

  /** Announces `text` politely (after what the reader is saying now). */
  say(text: string): void {
    this.messages = [...this.messages, { id: this.#next++, text }].slice(-KEPT);
  }
}

/** The app's announcer (its live region is in the root layout). */
export const announcer = new Announcer();
