/**
 * Whether the browser can reach the server, as the live connection and the browser see it. `epoch` moves on
 * each time the connection comes back, so a network error shown before that can clear itself.
 */
export class Connectivity {
  online = $state(true);
  epoch = $state(0);

  /** The connection dropped. */
  lost(): void {
    this.online = false;
  }

  /** The connection is back (the socket reconnected, or the browser came online). */
  restored(): void {
    this.online = true;
    this.epoch += 1;
  }
}

/** The app's connectivity. */
export const connectivity = new Connectivity();
