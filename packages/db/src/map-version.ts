import type { ReadDb } from './database.ts';

/**
 * A map row's owner and the columns that change whenever anything readable of the map changes: `lastSeq` (bumped
 * by every change in the change's transaction), `tokensUsed` (the budget ledger, which changes it without an
 * event) and `updatedAt` (an ISO string: only compared for equality).
 */
export interface MapVersion {
  ownerId: string;
  /** Whether conclusions start by themselves on the map. */
  autoRun: boolean;
  lastSeq: number;
  tokensUsed: number;
  updatedAt: string;
}

/** The map's {@link MapVersion} as committed, in one query; null when the map does not exist. */
export async function readMapVersion(read: Pick<ReadDb, 'map'>, mapId: string): Promise<MapVersion | null> {
  const row = await read.map.findUnique({
    where: { id: mapId },
    select: { ownerId: true, lastSeq: true, tokensUsed: true, updatedAt: true, autoRun: true },
  });
  return row ? { ...row, updatedAt: row.updatedAt.toISOString() } : null;
}
