import type { ResultOf } from '@thinkingmap/client';
import { print } from 'graphql';
import type { Client as WsClient } from 'graphql-ws';
import { SOAK_MAP_EVENTS } from './soak-documents.ts';

/** One event of a watched map, as the soak selects it. */
export type SoakMapEvent = ResultOf<typeof SOAK_MAP_EVENTS>['mapEvents'];

const QUERY = print(SOAK_MAP_EVENTS);

/** How long a person waits for the agents before giving the map up (a loaded machine is slow, not stuck). */
const WAIT_MS = 60_000;

/**
 * A person's open map, as the web workspace holds it: a `mapEvents` subscription from the map's start, kept while the
 * person works on the map and closed when they move on (map subscribers come and go).
 */
export class MapWatch {
  readonly #events: SoakMapEvent[] = [];
  readonly #waiters = new Set<() => void>();
  readonly #stop: () => void;
  #failure: Error | null = null;

  constructor(ws: WsClient, mapId: string) {
    this.#stop = ws.subscribe<ResultOf<typeof SOAK_MAP_EVENTS>>(
      { query: QUERY, variables: { mapId, after: 0 } },
      {
        next: (result) => {
          if (result.data) this.#events.push(result.data.mapEvents);
          for (const wake of this.#waiters) wake();
        },
        error: (error) => {
          this.#failure = new Error(`map subscription failed: ${JSON.stringify(error)}`);
          for (const wake of this.#waiters) wake();
        },
        complete: () => {},
      },
    );
  }

  /** The first event (seen already or to come) for which `match` returns a value; fails after a minute. */
  waitFor<T>(match: (event: SoakMapEvent) => T | undefined, what: string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const check = () => {
        if (this.#failure) return finish(() => reject(this.#failure));
        for (const event of this.#events) {
          const found = match(event);
          if (found !== undefined) return finish(() => resolve(found));
        }
      };
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        this.#waiters.delete(check);
        settle();
      };
      timer = setTimeout(() => finish(() => reject(new Error(`waited over a minute for ${what}`))), WAIT_MS);
      this.#waiters.add(check);
      check();
    });
  }

  /** The question of `kind` the agents asked (on `nodeId` when given), once it came. */
  question(kind: string, nodeId?: string) {
    return this.waitFor(
      (e) =>
        e.__typename === 'AgentQuestion' && e.kind === kind && (nodeId === undefined || e.nodeId === nodeId)
          ? e.requestId
          : undefined,
      `a ${kind} question`,
    );
  }

  /** Resolves when the run ended (finished or failed). */
  runEnded(runId: string) {
    return this.waitFor(
      (e) => ((e.__typename === 'RunFinished' || e.__typename === 'RunFailed') && e.runId === runId ? true : undefined),
      `run ${runId} to end`,
    );
  }

  close(): void {
    this.#stop();
    this.#waiters.clear();
  }
}
