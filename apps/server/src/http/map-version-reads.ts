import type { MapVersion } from '@thinkingmap/db';

/**
 * Reads of a map's row (`Database.mapVersion`) for requests that have just arrived: each answer is at least as new as
 * the map was when its request was asked, never older.
 *
 * The first request of a turn of the event loop, when no other is waiting for a read, reads at once: a lone client (one
 * connection) is answered without waiting for another turn. Requests that coincide — arriving in the same turn
 * as another, or while others wait for a read (a PostgreSQL round trip) — share one read per map, started once the
 * I/O of the turn has been handled (setImmediate): each of them had fully arrived before that read started, so none
 * is answered older than the map was when it was asked, and under load many requests cost one read and are answered
 * together.
 */
export class MapVersionReads {
  readonly #read: (mapId: string) => Promise<MapVersion | null>;
  /** Shared reads not started yet, by map id: requests that arrive before one starts share it. */
  readonly #pending = new Map<string, Promise<MapVersion | null>>();
  /** Requests that asked for a read and have not had its answer yet. */
  #waiting = 0;
  /** Whether a request of this turn has read at once (cleared once the turn's I/O has been handled). */
  #turnStarted = false;
  readonly #endTurn = () => {
    this.#turnStarted = false;
  };

  constructor(read: (mapId: string) => Promise<MapVersion | null>) {
    this.#read = read;
  }

  /**
   * The map's row as read after this call: started at once for a request alone in its turn (the first of the turn,
   * while no other waits for a read); else shared with the requests it coincides with.
   */
  read(mapId: string): Promise<MapVersion | null> {
    if (this.#waiting === 0 && !this.#turnStarted) {
      this.#startTurn();
      return this.#counted(this.#read(mapId));
    }
    return this.#counted(this.#shared(mapId));
  }

  /** `version`, counted among the reads requests wait for until it settles. */
  #counted(version: Promise<MapVersion | null>): Promise<MapVersion | null> {
    this.#waiting++;
    return version.then(
      (row) => {
        this.#waiting--;
        return row;
      },
      (error: unknown) => {
        this.#waiting--;
        throw error;
      },
    );
  }

  #startTurn() {
    this.#turnStarted = true;
    setImmediate(this.#endTurn);
  }

  #shared(mapId: string): Promise<MapVersion | null> {
    let pending = this.#pending.get(mapId);
    if (!pending) {
      pending = new Promise((resolve, reject) =>
        setImmediate(() => {
          // Requests arriving from now on wait for a read of their own.
          this.#pending.delete(mapId);
          this.#read(mapId).then(resolve, reject);
        }),
      );
      this.#pending.set(mapId, pending);
    }
    return pending;
  }
}
