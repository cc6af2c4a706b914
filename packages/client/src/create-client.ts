import { Client, fetchExchange, subscriptionExchange } from '@urql/core';
import { createClient as createWsClient, type Client as WsClient } from 'graphql-ws';

/** Options for {@link createThinkingMapClient}. */
export interface ThinkingMapClientOptions {
  /** The GraphQL endpoint, e.g. `http://127.0.0.1:4000/graphql`. */
  url: string;
  /** A bearer token; omitted, the server acts as its local user (embedded default). */
  token?: string | null;
  /** A WebSocket implementation where there is no global one (Node: `import WebSocket from 'ws'`). */
  webSocketImpl?: unknown;
  /** Retry attempts after the socket drops (graphql-ws reconnects and re-subscribes). */
  retryAttempts?: number;
  /** The `fetch` queries and mutations go through (default: the global one). */
  fetch?: typeof fetch;
}

/** A urql client whose subscriptions go over graphql-ws, plus the socket client for closing. */
export interface ThinkingMapClient {
  client: Client;
  ws: WsClient;
  close(): Promise<void>;
}

/** Creates a client for the ThinkingMap API: queries and mutations over HTTP, subscriptions over WebSocket. */
export function createThinkingMapClient(options: ThinkingMapClientOptions): ThinkingMapClient {
  const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
  const ws = createWsClient({
    url: options.url.replace(/^http/, 'ws'),
    connectionParams: options.token ? { authorization: `Bearer ${options.token}` } : {},
    lazy: true,
    retryAttempts: options.retryAttempts ?? 5,
    shouldRetry: () => true,
    ...(options.webSocketImpl ? { webSocketImpl: options.webSocketImpl } : {}),
  });
  const client = new Client({
    url: options.url,
    preferGetMethod: false,
    requestPolicy: 'network-only',
    fetchOptions: () => ({ headers }),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    exchanges: [
      fetchExchange,
      subscriptionExchange({
        forwardSubscription(request) {
          const input = { ...request, query: request.query || '' };
          return {
            subscribe(sink) {
              const unsubscribe = ws.subscribe<Record<string, unknown>, Record<string, unknown>>(input, {
                next: (result) => sink.next(result),
                error: (error) => sink.error(error),
                complete: () => sink.complete(),
              });
              return { unsubscribe };
            },
          };
        },
      }),
    ],
  });
  return {
    client,
    ws,
    async close() {
      await ws.dispose();
    },
  };
}
