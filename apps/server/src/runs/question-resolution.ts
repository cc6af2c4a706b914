import type { AgentRun, Prisma, RunLog, RunOwnerColumns, Tx } from '@thinkingmap/db';
import { NotFoundError } from '../commands/domain-errors.ts';
import { toQuestionSnapshot } from '../commands/event-snapshots.ts';
import type { Emit } from '../commands/mutate-map.ts';

/**
 * Moves a question out of `from` (PENDING by default) with `data` and tells subscribers. Returns how many
 * other questions of its run still wait, or null when the question was no longer in `from`.
 */
async function resolveQuestion(
  log: RunLog,
  tx: Tx,
  emit: Emit,
  question: { id: string; runId: string },
  data: { status: 'ANSWERED' | 'EXPIRED'; answeredAt?: Date; reply?: Prisma.InputJsonValue },
  from: ('PENDING' | 'EXPIRED')[] = ['PENDING'],
): Promise<number | null> {
  const updated = await log.resolveQuestion(tx, question.id, from, data);
  if (!updated) return null;
  emit({ type: 'QuestionResolved', payload: { question: toQuestionSnapshot(updated) } });
  return log.pendingQuestions(tx, question.runId);
}

/**
 * Closes a question that can still be answered (PENDING, or an expired gate of a paused run: `from`), tells
 * subscribers, and marks its run RUNNING again, driven by `owner`, once no other question of it waits. Returns the run and how
 * many questions were waiting (for addressing the resume), or null when the question was no longer open.
 */
export async function closeQuestion(
  log: RunLog,
  tx: Tx,
  emit: Emit,
  question: { id: string; runId: string },
  data: { status: 'ANSWERED' | 'EXPIRED'; answeredAt: Date; reply?: Prisma.InputJsonValue },
  owner: RunOwnerColumns,
  from: ('PENDING' | 'EXPIRED')[] = ['PENDING'],
): Promise<{ run: AgentRun; waiting: number } | null> {
  const waiting = await resolveQuestion(log, tx, emit, question, data, from);
  if (waiting === null) return null;
  const run = await log.resumedRun(tx, question.runId, waiting === 0, owner);
  if (!run) throw new NotFoundError('AgentRun', question.runId);
  return { run, waiting: waiting + 1 };
}

/**
 * Marks a gate question EXPIRED without answering it, and pauses its run once nothing else of it waits: no
 * drive starts, the checkpoint stays, and the question can still be answered (`isAnswerable`).
 */
export async function pauseOnExpiredGate(
  log: RunLog,
  tx: Tx,
  emit: Emit,
  question: { id: string; runId: string },
): Promise<void> {
  const waiting = await resolveQuestion(log, tx, emit, question, { status: 'EXPIRED' });
  if (waiting === 0)
    await tx.agentRun.updateMany({ where: { id: question.runId, status: 'WAITING' }, data: { status: 'PAUSED' } });
}
