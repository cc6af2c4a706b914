import { createHash } from 'node:crypto';
import type { ConsultationNoteDraft, ConsultationRecordDraft } from '../../ports/consultation-store-port.ts';

const digest = (...parts: string[]) => createHash('sha256').update(parts.join('\0')).digest('base64url').slice(0, 32);

/**
 * The idempotency key of a record: the consultation, the person's message it is drawn from, and its content.
 * A turn cut short after it wrote a record (interrupted, failed, or killed before its messages were marked
 * planned) plans the same message again; the same record drawn from it again is not written twice.
 */
export function recordWriteKey(consultationId: string, record: ConsultationRecordDraft): string {
  return `consultation:${consultationId}:record:${record.sourceMessageId ?? '-'}:${digest(record.content)}`;
}

/**
 * The idempotency key of a note: the consultation, the person's message the turn plans from (its oldest
 * unplanned one, the same when the turn is planned again), the note's path and its content. Planning that
 * message again does not write the same version of the note twice; a changed content is a new version.
 */
export function noteWriteKey(
  consultationId: string,
  sourceMessageId: string | null,
  note: ConsultationNoteDraft,
): string {
  return `consultation:${consultationId}:note:${sourceMessageId ?? '-'}:${digest(note.path, note.content)}`;
}
