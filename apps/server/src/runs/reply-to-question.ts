import { type AgentRun, isJsonObject, jsonColumn, QuestionKind } from '@thinkingmap/db';
import { z } from 'zod';
import type { CommandContext } from '../commands/context.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../commands/domain-errors.ts';
import { checkJson, id, parseInput } from '../commands/input.ts';
import { assertCanChange, mutateMap } from '../commands/mutate-map.ts';
import { checkReviewSkills } from '../divergent/offered-skill.ts';
import { steerDivergent } from '../divergent/steer-divergent.ts';
import { undoRunCreations } from '../history/undo-commands.ts';
import { UndoRefusedError } from '../history/undo-refused-error.ts';
import { isAnswerable } from './answerable-questions.ts';
import { closeQuestion } from './question-resolution.ts';
import { checkReplyLimits } from './reply-limits.ts';
import { buildReply, type ReplyShortcut } from './reply-schemas.ts';
import { driveMapOf, type RunEngine } from './run-engine.ts';

/**
 * The person approved a fork's proposal: the sub-questions (and dependencies) the original run created are
 * taken back first (refused, with the later change named, where something since depends on it; the question keeps
 * waiting), so the fork's sub-questions replace the original's instead of joining them.
 */
async function replaceForkedRun(ctx: CommandContext, question: { id: string; runId: string }): Promise<void> {
  const run = await ctx.db.read.agentRun.findUniqueOrThrow({
    where: { id: question.runId },
    select: { status: true, forkedFromRunId: true },
  });
  const current = await ctx.db.read.agentQuestion.findUniqueOrThrow({
    where: { id: question.id },
    select: { status: true, kind: true },
  });
  if (!run.forkedFromRunId || !isAnswerable(current, run.status)) return;
  try {
    await undoRunCreations(ctx, run.forkedFromRunId);
  } catch (error) {
    if (!(error instanceof UndoRefusedError && error.reason === 'NOTHING_TO_UNDO')) throw error;
  }
}

/** Answers a waiting question; the run resumes from where it paused. */
export async function replyToQuestion(
  engine: RunEngine,
  ctx: CommandContext,
  requestId: string,
  shortcut: ReplyShortcut,
): Promise<AgentRun> {
  const questionId = parseInput(z.object({ requestId: id }), { requestId }).requestId;
  const question = await ctx.db.agentReads.question(questionId);
  if (!question) throw new NotFoundError('AgentQuestion', questionId);
  // Access first: how a reply is checked depends on the question, which is none of a stranger's business.
  assertCanChange(ctx, 'AgentQuestion', questionId);
  const map = await ctx.db.mapVersion(question.mapId);
  if (map?.ownerId !== ctx.viewer.id) throw new ForbiddenError('AgentQuestion', questionId);
  checkJson('reply', shortcut.reply);
  checkJson('text', shortcut.text);
  checkReviewSkills(question.kind, shortcut.reply, engine.divergentSkills());
  const reply = buildReply(question.kind, shortcut);
  checkReplyLimits(question.kind, reply);
  if (question.kind === QuestionKind.REVIEW_DECOMPOSITION && isJsonObject(reply) && reply.action === 'approve')
    await replaceForkedRun(ctx, question);
  const { run, waiting, onMap } = await mutateMap(ctx, question.mapId, async (tx, emit, map) => {
    // An expired gate is still the person's to answer while its run is paused: the run goes on from there.
    const current = await ctx.db.runLog.questionState(tx, question.id);
    if (!current) throw new NotFoundError('AgentQuestion', question.id);
    const closed = isAnswerable(current, current.runStatus)
      ? await closeQuestion(
          ctx.db.runLog,
          tx,
          emit,
          question,
          { status: 'ANSWERED', reply: jsonColumn(reply), answeredAt: new Date() },
          engine.ownerColumns,
          ['PENDING', 'EXPIRED'],
        )
      : null;
    if (!closed)
      throw new ValidationError('requestId', `this question is no longer waiting (${current.status.toLowerCase()})`);
    return { ...closed, onMap: driveMapOf(map) };
  });
  void engine.resume(run, question.interruptId, reply, waiting, onMap);
  return run;
}

/**
 * Steers a running divergent session (stop, skip or add a task, change the threshold, add feedback): see
 * `steerDivergent`. Stopping a session that waits for its level review answers that review. Returns the session's run.
 */
export function steerDivergentRun(engine: RunEngine, ctx: CommandContext, raw: unknown): Promise<AgentRun> {
  return steerDivergent(ctx, raw, {
    skills: engine.divergentSkills(),
    interruptTasks: (runId, keys, reason) => engine.interruptTasks(runId, keys, reason),
    stopReview: (c, questionId) => replyToQuestion(engine, c, questionId, { reply: { action: 'stop' } }),
  });
}
