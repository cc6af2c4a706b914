import { isGateQuestion } from '@thinkingmap/db';
import type { CommandContext } from '../commands/context.ts';
import { mutateMap } from '../commands/mutate-map.ts';
import { closeQuestion, pauseOnExpiredGate } from './question-resolution.ts';
import type { RunEngine } from './run-engine.ts';

/**
 * Expires every question whose time ran out. A clarifying question lets its run go on with what it has. A
 * gate (confirm, review) never passes by expiry: the question is marked EXPIRED but stays answerable, and its
 * run is PAUSED with its proposal and checkpoint kept, until the person answers or redoes the step.
 * Returns how many expired.
 */
export async function expireDueQuestions(
  engine: RunEngine,
  ctx: Omit<CommandContext, 'viewer'>,
  now = new Date(),
): Promise<number> {
  const due = await ctx.db.read.agentQuestion.findMany({
    where: { status: 'PENDING', expiresAt: { lte: now } },
    include: { run: { select: { map: { select: { ownerId: true } } } } },
  });
  for (const question of due) {
    const owner = { id: question.run.map.ownerId };
    if (isGateQuestion(question.kind)) {
      await mutateMap({ ...ctx, viewer: owner }, question.mapId, (tx, emit) =>
        pauseOnExpiredGate(ctx.db.runLog, tx, emit, question),
      );
      continue;
    }
    const result = await mutateMap({ ...ctx, viewer: owner }, question.mapId, (tx, emit) =>
      closeQuestion(ctx.db.runLog, tx, emit, question, { status: 'EXPIRED', answeredAt: now }, engine.ownerColumns),
    );
    if (result) void engine.expire(result.run, question.interruptId, result.waiting);
  }
  return due.length;
}
