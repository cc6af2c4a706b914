import type { ReadDb } from '@thinkingmap/db';
import { encodeFeedCursor, type FeedCursor } from './viewer-cursor.ts';
import type { FeedItem } from './viewer-event-stream.ts';
import { type FeedFilters, viewerFeedLog } from './viewer-feed-log.ts';

/** Options of {@link readViewerEvents}. */
export interface ViewerEventPageOptions extends FeedFilters {
  viewerId: string;
  /** Where the previous page ended; omitted = from the start of the feed. */
  after?: FeedCursor | null;
  first: number;
}

/** A page of the viewer-wide feed; `endCursor` resumes after it (as a page's `after` or the subscription's). */
export interface ViewerEventPage {
  edges: FeedItem[];
  endCursor: string;
  hasMore: boolean;
}

/**
 * Stored events of every map the viewer owns after the cursor, in commit order (`Event.feedSeq`), one query. The page
 * reads up to the feed's horizon at its start, so its `endCursor` stands past everything it left out by a filter.
 */
export async function readViewerEvents(db: ReadDb, options: ViewerEventPageOptions): Promise<ViewerEventPage> {
  const log = await viewerFeedLog(db, options.viewerId, options, options.after ?? null);
  const horizon = (await log.horizon()) ?? 0;
  const events = await log.read(log.start, horizon, options.first + 1);
  const page = events.slice(0, options.first);
  const edges = page.map((event) => ({ cursor: encodeFeedCursor(log.seqOf(event)), event }));
  const hasMore = events.length > options.first;
  const lastOfPage = page.at(-1);
  const end = hasMore && lastOfPage ? log.seqOf(lastOfPage) : Math.max(horizon, log.start);
  return { edges, endCursor: encodeFeedCursor(end), hasMore };
}
