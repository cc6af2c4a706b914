import { createThinkingMapClient, DASHBOARD, type ResultOf } from '@thinkingmap/client';
import { call } from '@thinkingmap/client/testing';
import { print } from 'graphql';
import { createClient as createSseClient } from 'graphql-sse';
import WebSocket from 'ws';
import { SOAK_FEED } from './soak-documents.ts';

const QUERY = print(SOAK_FEED);
type FeedEdge = ResultOf<typeof SOAK_FEED>['viewerEvents'];

/** What a dashboard saw: events delivered, and any break in its feed (a position skipped or repeated). */
export interface FeedTally {
  name: string;
  delivered: number;
  skipped: number;
  repeated: number;
  /** The feed position of the last event delivered (read from the cursor: the soak checks continuity). */
  position: number;
  /** Reads of the `dashboard` overview it made on events (at most two a second, as the web page does). */
  overviews: number;
  /** How long each overview read took (ms) since the soak last took them. */
  overviewMs: number[];
  errors: number;
}

/** A feed's position, from its cursor (base64url of `{"feed": n}`). */
const positionOf = (cursor: string) => Number(JSON.parse(Buffer.from(cursor, 'base64url').toString()).feed);

/**
 * A dashboard on `viewerEvents` over graphql-ws or SSE (from `after` when it had been open before), reading the
 * `dashboard` overview again on events (throttled to one read per 500 ms).
 */
export function openDashboard(options: {
  endpoint: string;
  token: string;
  transport: 'graphql-ws' | 'sse';
  tally: FeedTally;
  after?: string | null;
}) {
  const { endpoint, token, tally } = options;
  const api = createThinkingMapClient({ url: endpoint, token, webSocketImpl: WebSocket, retryAttempts: 0 });
  const sse = createSseClient({ url: endpoint, headers: { authorization: `Bearer ${token}` }, retryAttempts: 0 });
  let lastRead = 0;
  let cursor = options.after ?? null;
  const onEdge = (edge: FeedEdge) => {
    const position = positionOf(edge.cursor);
    if (tally.position && position > tally.position + 1) tally.skipped += position - tally.position - 1;
    if (tally.position && position <= tally.position) tally.repeated++;
    tally.position = Math.max(tally.position, position);
    tally.delivered++;
    cursor = edge.cursor;
    if (performance.now() - lastRead < 500) return;
    lastRead = performance.now();
    tally.overviews++;
    const started = performance.now();
    call(api.client, DASHBOARD, { days: 14 })
      .then(() => tally.overviewMs.push(performance.now() - started))
      .catch(() => tally.errors++);
  };
  const sink = {
    next: (result: { data?: ResultOf<typeof SOAK_FEED> | null }) => {
      if (result.data) onEdge(result.data.viewerEvents);
    },
    error: () => tally.errors++,
    complete: () => {},
  };
  const subscribe = () => {
    const payload = { query: QUERY, variables: cursor ? { after: cursor } : {} };
    return options.transport === 'sse' ? sse.subscribe(payload, sink) : api.ws.subscribe(payload, sink);
  };
  const stop = subscribe();
  return {
    /** The cursor of the last event delivered (to open it again from there). */
    cursor: () => cursor,
    async close() {
      stop();
      sse.dispose();
      await api.close();
    },
  };
}
