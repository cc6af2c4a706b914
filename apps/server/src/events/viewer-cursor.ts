import { ValidationError } from '../commands/domain-errors.ts';

/**
 * Where a viewer-wide feed stands: a position in the viewer's feed (`Event.feedSeq`), or, for a cursor an earlier
 * version of the server gave, the last sequence number delivered per map.
 */
export type FeedCursor = { feedSeq: number } | { perMap: Map<string, number> };

/**
 * The feed's opaque cursor: base64url of `{"feed":n}`, the position of the last event delivered in the viewer's feed.
 * It does not grow with the number of maps.
 */
export function encodeFeedCursor(feedSeq: number): string {
  return Buffer.from(JSON.stringify({ feed: feedSeq })).toString('base64url');
}

/**
 * Reads a cursor of {@link encodeFeedCursor}, or one of the earlier per-map form (base64url of `{ mapId: seq }`) so a
 * dashboard that held one across an upgrade resumes where it was; anything else is a ValidationError on `field`.
 */
export function decodeFeedCursor(cursor: string, field = 'after'): FeedCursor {
  const refuse = () => new ValidationError(field, 'is not a cursor of this feed');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw refuse();
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw refuse();
  const positions = new Map<string, number>();
  for (const [key, seq] of Object.entries(parsed)) {
    if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0) throw refuse();
    positions.set(key, seq);
  }
  const feed = positions.get('feed');
  return positions.size === 1 && feed !== undefined ? { feedSeq: feed } : { perMap: positions };
}
