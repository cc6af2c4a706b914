import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';
import WebSocket from 'ws';
import { SSE_STREAM_PATH } from '../../src/http/sse-single-connection.ts';

/** One GraphQL request as a client author writes it: any document, variables and operation name. */
export interface SubscriptionRequest {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
}

/** A subscription's raw results (`data` as the server shaped it), and a wait for a count of them. */
export interface ResultCollector {
  results: Record<string, unknown>[];
  errors: unknown[];
  completed: boolean;
  /** Resolves with the first `count` results; rejects on an error or after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<Record<string, unknown>[]>;
  /** Resolves once the server completed the subscription (rejects after `timeoutMs`). */
  waitForCompletion(timeoutMs?: number): Promise<void>;
  stop(): void;
}

/** The ways a client reaches the server's subscriptions, each through its protocol's own client. */
export type TransportName = 'graphql-ws' | 'sse distinct connections' | 'sse single connection';
export const TRANSPORTS: readonly TransportName[] = ['graphql-ws', 'sse distinct connections', 'sse single connection'];

/** A subscriber over one transport, acting with one token; `dispose` closes its connections. */
export interface Subscriber {
  subscribe(request: SubscriptionRequest): ResultCollector;
  dispose(): void;
}

function collector(): ResultCollector & { sink: Parameters<ReturnType<typeof createWsClient>['subscribe']>[1] } {
  const results: Record<string, unknown>[] = [];
  const errors: unknown[] = [];
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const waiter of [...waiters]) waiter();
  };
  const c = {
    results,
    errors,
    completed: false,
    sink: {
      next: (result: { data?: unknown; errors?: readonly unknown[] | null }) => {
        if (result.errors?.length) errors.push(...result.errors);
        if (result.data) results.push(result.data as Record<string, unknown>);
        wake();
      },
      error: (error: unknown) => {
        errors.push(error instanceof Error ? error.message : error);
        wake();
      },
      complete: () => {
        c.completed = true;
        wake();
      },
    },
    waitFor(count: number, timeoutMs = 5_000) {
      return until(
        () => {
          if (results.length >= count) return results.slice(0, count);
          if (errors.length) throw new Error(`subscription failed: ${JSON.stringify(errors)}`);
          if (c.completed) throw new Error(`completed after ${results.length} of ${count} results`);
          return undefined;
        },
        timeoutMs,
        () => `expected ${count} results, got ${JSON.stringify(results)}; errors: ${JSON.stringify(errors)}`,
      );
    },
    waitForCompletion(timeoutMs = 5_000) {
      return until(
        () => (c.completed ? true : undefined),
        timeoutMs,
        () => 'the subscription did not complete',
      ).then(() => {});
    },
    stop() {},
  };
  /** Re-checks `check` on every message until it returns a value or throws. */
  function until<T>(check: () => T | undefined, timeoutMs: number, describe: () => string): Promise<T> {
    return new Promise((resolve, reject) => {
      const done = () => {
        waiters.delete(poll);
        clearTimeout(timer);
      };
      const poll = () => {
        try {
          const value = check();
          if (value !== undefined) {
            done();
            resolve(value);
          }
        } catch (error) {
          done();
          reject(error);
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(describe()));
      }, timeoutMs);
      waiters.add(poll);
      poll();
    });
  }
  return c;
}

/** Opens a subscriber over `transport` at `endpoint` (`http://host:port/graphql`) acting with `token`. */
export function openSubscriber(transport: TransportName, endpoint: string, token: string): Subscriber {
  const authorization = `Bearer ${token}`;
  if (transport === 'graphql-ws') {
    const client = createWsClient({
      url: endpoint.replace(/^http/, 'ws'),
      connectionParams: { authorization },
      webSocketImpl: WebSocket,
      retryAttempts: 0,
    });
    return {
      subscribe(request) {
        const c = collector();
        c.stop = client.subscribe(request, c.sink);
        return c;
      },
      dispose: () => void client.dispose(),
    };
  }
  const single = transport === 'sse single connection';
  const client = createSseClient({
    url: single ? endpoint.replace(/\/graphql$/, SSE_STREAM_PATH) : endpoint,
    singleConnection: single,
    // A function, not an object: in single connection mode graphql-sse writes its stream token into the headers
    // object it is given, and would send that stale token when it reconnects (answered 409 "Stream already registered").
    headers: () => ({ authorization }),
    retryAttempts: 0,
  });
  return {
    subscribe(request) {
      const c = collector();
      c.stop = client.subscribe(request, c.sink as never);
      return c;
    },
    dispose: () => client.dispose(),
  };
}
