import { MAP_EVENTS, type ResultOf, type ThinkingMapClient } from '@thinkingmap/client';
import { print } from 'graphql';
import type { MapEventSource } from './event-source.ts';

const QUERY = print(MAP_EVENTS);

/**
 * A {@link MapEventSource} over the API client's graphql-ws socket. graphql-ws reconnects with its own
 * backoff (`retryAttempts`, `retryWait`) and sends each subscription again; the `after` variable is a
 * getter, serialised each time the subscription is sent, so a resubscription resumes from the store.
 */
export function graphqlWsSource(api: ThinkingMapClient): MapEventSource {
  return {
    subscribe(mapId, after, sink) {
      const variables = {
        mapId,
        get after() {
          return after();
        },
      };
      return api.ws.subscribe<ResultOf<typeof MAP_EVENTS>>(
        { query: QUERY, variables },
        {
          next: (result) => {
            if (result.errors?.length) sink.error(new Error(result.errors.map((e) => e.message).join('; ')));
            else if (result.data) sink.next(result.data.mapEvents);
          },
          error: (error) => sink.error(error),
          complete: () => sink.complete(),
        },
      );
    },
    onConnection(listener) {
      const stopConnected = api.ws.on('connected', (_socket, _payload, retry) => listener.connected(retry));
      const stopClosed = api.ws.on('closed', () => listener.closed());
      return () => {
        stopConnected();
        stopClosed();
      };
    },
  };
}
