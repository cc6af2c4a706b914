import { SuggestionStatus, type Tx } from '@thinkingmap/db';
import type { Emit } from '../commands/mutate-map.ts';
import { toSuggestionSnapshot } from '../commands/suggestion-snapshot.ts';
import type { HistoryEvent } from './history-events.ts';

/**
 * Takes back the person's decisions on critic suggestions made in the changes being taken back (by their first
 * sequence numbers): each suggestion goes back to the status it had before the first of them, except that an
 * open suggestion accepted there becomes UNDONE rather than open again (its change was taken back, and the questions it
 * concerns have moved on since the review). A redo takes an UNDONE back to ACCEPTED the same way. Emits
 * `SuggestionResolved` for each suggestion whose status changes.
 */
export async function takeBackSuggestionDecisions(
  tx: Tx,
  emit: Emit,
  log: readonly HistoryEvent[],
  changes: ReadonlySet<number>,
): Promise<void> {
  const before = new Map<string, SuggestionStatus>();
  const seen = new Map<string, SuggestionStatus>();
  for (const event of log) {
    if (event.type !== 'SuggestionPosted' && event.type !== 'SuggestionResolved') continue;
    const { id, status } = event.payload.suggestion;
    if (changes.has(event.changeSeq) && event.type === 'SuggestionResolved' && !before.has(id)) {
      const was = seen.get(id) ?? SuggestionStatus.OPEN;
      const acceptance = was === SuggestionStatus.OPEN && status === SuggestionStatus.ACCEPTED;
      before.set(id, acceptance ? SuggestionStatus.UNDONE : was);
    }
    seen.set(id, status);
  }
  for (const [id, status] of before) {
    const moved = await tx.criticSuggestion.updateMany({
      where: { id, status: { not: status } },
      data: { status, resolvedAt: new Date() },
    });
    if (moved.count === 0) continue;
    const row = await tx.criticSuggestion.findUniqueOrThrow({ where: { id } });
    emit({ type: 'SuggestionResolved', payload: { suggestion: toSuggestionSnapshot(row) } });
  }
}
