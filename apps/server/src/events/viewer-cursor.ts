import { ValidationError } from '../errors/domain-errors.ts';

/** Per map, the sequence number of the last event a viewer-wide feed delivered (0: none yet). */
export type FeedPositions = Map<string, number>;

/**
 * The opaque cursor of the viewer-wide feed: base64url of the per-map last sequence numbers, so a client that
 * resumes with it gets exactly what it missed on every map. A map absent from a cursor is read from its start (it
 * was created after the cursor was issued).
 */
export function encodeFeedCursor(positions: FeedPositions): string {
  return Buffer.from(JSON.stringify(Object.fromEntries(positions))).toString('base64url');
}

/** Reads a cursor of {@link encodeFeedCursor}; anything else is a ValidationError on `field`. */
export function decodeFeedCursor(cursor: string, field = 'after'): FeedPositions {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new ValidationError(field, 'is not a cursor of this feed');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ValidationError(field, 'is not a cursor of this feed');
  }
  const positions: FeedPositions = new Map();
  for (const [mapId, seq] of Object.entries(parsed)) {
    if (!Number.isSafeInteger(seq) || (seq as number) < 0)
      throw new ValidationError(field, 'is not a cursor of this feed');
    positions.set(mapId, seq as number);
  }
  return positions;
}
