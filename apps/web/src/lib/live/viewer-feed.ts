import { type ResultOf, type ThinkingMapClient, VIEWER_EVENTS_FEED } from '@thinkingmap/client';
import { print } from 'graphql';

const QUERY = print(VIEWER_EVENTS_FEED);

/** What {@link followViewerEvents} reports. */
export interface ViewerFeedListener {
  /** An event of one of the viewer's maps arrived. */
  event: (edge: ResultOf<typeof VIEWER_EVENTS_FEED>['viewerEvents']) => void;
  /** The socket is (again) connected: what happened while it was down is unknown, so read everything again. */
  connected: () => void;
  /** The socket dropped; graphql-ws reconnects with its backoff and sends the subscription again. */
  closed: () => void;
}

/**
 * Follows the viewer-wide feed (every map the viewer may read, new maps included) over the API client's
 * graphql-ws socket, for a page that reads a whole overview again on each change rather than applying events:
 * it needs no cursor, since each (re)connection is followed by a fresh read. `socketOpen` says whether the socket
 * is already open (another page opened it before a client-side navigation): the subscription then goes out on
 * it at once, so the feed is connected now. Returns a function that stops.
 */
export function followViewerEvents(
  api: ThinkingMapClient,
  listener: ViewerFeedListener,
  socketOpen = false,
): () => void {
  let stopped = false;
  const stopConnected = api.ws.on('connected', () => {
    if (!stopped) listener.connected();
  });
  const stopClosed = api.ws.on('closed', () => {
    if (!stopped) listener.closed();
  });
  const unsubscribe = api.ws.subscribe<ResultOf<typeof VIEWER_EVENTS_FEED>>(
    { query: QUERY, variables: {} },
    {
      next: (result) => {
        if (!stopped && result.data) listener.event(result.data.viewerEvents);
      },
      error: () => {
        if (!stopped) listener.closed();
      },
      complete: () => {},
    },
  );
  if (socketOpen)
    queueMicrotask(() => {
      if (!stopped) listener.connected();
    });
  return () => {
    stopped = true;
    stopConnected();
    stopClosed();
    unsubscribe();
  };
}
