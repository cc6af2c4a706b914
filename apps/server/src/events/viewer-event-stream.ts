import type { ReadDb } from '@thinkingmap/db';
import { Repeater } from 'graphql-yoga';
import type { MapEvent } from '../commands/map-event.ts';
import type { EventBus } from './event-bus.ts';
import type { TakeTurn } from './replay-turns.ts';
import { sequencedStream } from './sequenced-stream.ts';
import { encodeFeedCursor, type FeedCursor } from './viewer-cursor.ts';
import { type FeedFilters, viewerFeedLog } from './viewer-feed-log.ts';

/** An event of the viewer-wide feed with the cursor to resume right after it. */
export interface FeedItem {
  cursor: string;
  event: MapEvent;
}

/** Options of {@link viewerEventStream}. */
export interface ViewerEventStreamOptions extends FeedFilters {
  db: ReadDb;
  bus: EventBus;
  viewerId: string;
  /** Where to resume (a decoded cursor); omitted = live events only. */
  after?: FeedCursor | null;
  /** Waits for the stream's turn before each page it replays (see ReplayTurns); none: at once. */
  turn?: TakeTurn;
}

/**
 * Every event of every map the viewer owns, as one feed in commit order (`Event.feedSeq`), gap-free and
 * duplicate-free like one map's stream (see {@link sequencedStream}): what it costs follows what it delivers, not
 * how many maps the viewer owns. Maps created later are in it from their MapCreated; a deleted map's events end with
 * its MapDeleted. Each item's cursor resumes right after it.
 */
export function viewerEventStream(options: ViewerEventStreamOptions): Repeater<FeedItem> {
  const { db, bus, viewerId, after } = options;
  return new Repeater<FeedItem>(async (push, stop) => {
    const log = await viewerFeedLog(db, viewerId, options, after ?? null);
    const stream = sequencedStream(bus, { ...log, turn: options.turn }, after ? log.start : null);
    void stop.then(() => stream.return());
    for await (const { event, position } of stream) await push({ cursor: encodeFeedCursor(position), event });
    stop();
  });
}
