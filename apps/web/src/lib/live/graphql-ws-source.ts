import type { ThinkingMapClient } from '@thinkingmap/client';
import { WORKSPACE_MAP_EVENTS } from '@thinkingmap/client';
import { print } from 'graphql';
import type { MapEvent } from '../api/map-event.ts';
import type { MapEventSource } from './event-source.ts';

const QUERY = print(WORKSPACE_MAP_EVENTS);

/** A {@link MapEventSource} over the API client's graphql-ws socket. */
export function graphqlWsSource(api: ThinkingMapClient): MapEventSource {
  return {
    subscribe(mapId, after, sink) {
      return api.ws.subscribe<{ mapEvents: MapEvent }>(
        { query: QUERY, variables: { mapId, after } },
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
    onConnected: (listener) => api.ws.on('connected', () => listener()),
  };
}
