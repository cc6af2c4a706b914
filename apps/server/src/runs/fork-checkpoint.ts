import { type AgentRun, isOneOf, type Tx } from '@thinkingmap/db';
import { ConflictError, ValidationError } from '../commands/domain-errors.ts';

/** Runs that ended (or paused on an expired gate) with their checkpoints kept: the ones a fork can start from. */
const FORKABLE_RUN_STATUSES = ['COMPLETED', 'FAILED', 'PAUSED'] as const;

/**
 * Refuses a fork of a run that has not ended, in the fork's transaction (one whose checkpoints were pruned is
 * refused by {@link copyCheckpointIn}, in the same transaction).
 */
export async function assertForkable(tx: Tx, from: AgentRun): Promise<void> {
  const current = await tx.agentRun.findUniqueOrThrow({ where: { id: from.id }, select: { status: true } });
  if (current.status === 'CANCELLED')
    throw new ValidationError('runId', 'a cancelled run keeps no checkpoints to fork from; start the question again');
  if (!isOneOf(FORKABLE_RUN_STATUSES, current.status))
    throw new ConflictError(`run ${from.id} has not ended (${current.status.toLowerCase()}); wait for it or cancel it`);
}

/**
 * Copies one checkpoint of a thread (the root namespace's: the one a step started from) to a new thread, in the
 * caller's transaction; refuses when it is no longer kept.
 */
export async function copyCheckpointIn(
  tx: Tx,
  fromThread: string,
  checkpointId: string | null,
  toThread: string,
): Promise<void> {
  const kept =
    checkpointId &&
    (await tx.checkpoint.findUnique({
      where: { threadId_namespace_checkpointId: { threadId: fromThread, namespace: '', checkpointId } },
    }));
  if (!kept)
    throw new ValidationError('runId', 'the checkpoints of this run are no longer kept (only the latest runs are)');
  await tx.checkpoint.create({ data: { ...kept, threadId: toThread, parentCheckpointId: null } });
}
