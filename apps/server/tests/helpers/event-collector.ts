import { MAP_EVENTS, type ResultOf } from '@thinkingmap/client';
import type { Client } from '@urql/core';
import { print } from 'graphql';
import type { createClient as createSseClient } from 'graphql-sse';

/** An event as the tests see it (the EventFields fragment); narrow it by `__typename`. */
export type ReceivedEvent = ResultOf<typeof MAP_EVENTS>['mapEvents'];

/** Collects a subscription's events and errors, and waits for a count. */
export interface EventCollector {
  events: ReceivedEvent[];
  errors: unknown[];
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedEvent[]>;
  stop(): void;
}

function collector(): EventCollector & { push(event: ReceivedEvent): void; fail(error: unknown): void } {
  const events: ReceivedEvent[] = [];
  const errors: unknown[] = [];
  let wake = () => {};
  return {
    events,
    errors,
    push(event) {
      events.push(event);
      wake();
    },
    fail(error) {
      errors.push(error);
      wake();
    },
    waitFor(count, timeoutMs = 5_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(
              new Error(
                `expected ${count} events, got ${events.length}: ${events.map((e) => e.__typename).join(', ')}; errors: ${JSON.stringify(errors)}`,
              ),
            ),
          timeoutMs,
        );
        const check = () => {
          if (events.length >= count) {
            clearTimeout(timer);
            resolve(events.slice(0, count));
          } else if (errors.length) {
            clearTimeout(timer);
            reject(new Error(`subscription failed: ${JSON.stringify(errors)}`));
          }
        };
        wake = check;
        check();
      });
    },
    stop() {},
  };
}

/** Subscribes to a map's events over graphql-ws through urql. */
export function collectOverWebSocket(client: Client, mapId: string, after?: number): EventCollector {
  const c = collector();
  const { unsubscribe } = client.subscription(MAP_EVENTS, { mapId, after }).subscribe((result) => {
    if (result.error) c.fail(result.error.message);
    else if (result.data) c.push(result.data.mapEvents);
  });
  c.stop = unsubscribe;
  return c;
}

/** Subscribes to a map's events over SSE (graphql-sse, distinct connections mode). */
export function collectOverSse(
  client: ReturnType<typeof createSseClient>,
  mapId: string,
  after?: number,
): EventCollector {
  const c = collector();
  c.stop = client.subscribe<ResultOf<typeof MAP_EVENTS>>(
    { query: print(MAP_EVENTS), variables: { mapId, after } },
    {
      next: (result) => {
        if (result.errors) c.fail(result.errors.map((e) => e.message));
        else if (result.data) c.push(result.data.mapEvents);
      },
      error: (error) => c.fail(error instanceof Error ? error.message : error),
      complete: () => {},
    },
  );
  return c;
}
