import { ConflictError } from '../commands/domain-errors.ts';

/** Why an undo, redo or restore was refused. */
export type UndoRefusal = 'NOTHING_TO_UNDO' | 'NOTHING_TO_REDO' | 'LATER_CHANGE' | 'ALREADY_UNDONE' | 'NOT_REVERSIBLE';

/**
 * An undo, redo or restore that would lose or contradict something: `laterSeq` names the later change that
 * depends on what would be undone (the person sees it in the history). Nothing was changed.
 */
export class UndoRefusedError extends ConflictError {
  constructor(
    readonly reason: UndoRefusal,
    message: string,
    readonly laterSeq: number | null = null,
    readonly entityId: string | null = null,
  ) {
    super(message);
    this.name = 'UndoRefusedError';
  }
}
