import type { ChangeKind, ReadDb, Tx } from '@thinkingmap/db';
import { toLoggedEvent } from '../commands/event-log.ts';
import type { MapEvent } from '../commands/map-event.ts';

/** A stored event with who made it and which change it belongs to. */
export type HistoryEvent = MapEvent & {
  actorId: string | null;
  runId: string | null;
  step: string | null;
  /** The change it belongs to (events written before history existed are each their own change). */
  changeSeq: number;
  changeKind: ChangeKind;
  revertsSeq: number | null;
};

/**
 * Reads a map's whole log, oldest first, with each event's change metadata and its payload upgraded (a
 * deletion's archive included).
 */
export async function readHistoryEvents(db: ReadDb | Tx, mapId: string): Promise<HistoryEvent[]> {
  const rows = await db.event.findMany({ where: { mapId }, orderBy: { seq: 'asc' } });
  return rows.map(
    (row): HistoryEvent => ({
      ...toLoggedEvent(row),
      actorId: row.actorId,
      runId: row.runId,
      step: row.step,
      changeSeq: row.changeSeq ?? row.seq,
      changeKind: row.changeKind ?? 'EDIT',
      revertsSeq: row.revertsSeq,
    }),
  );
}
