import { DIVERGENT_LIMITS, DIVERGENT_SKILL_NAMES, type DivergentSkills } from '@thinkingmap/agent-core';
import { AgentGraph, type AgentRun, isDivergentTaskEnded, isRunOpen, QuestionKind } from '@thinkingmap/db';
import { z } from 'zod';
import type { CommandContext } from '../commands/context.ts';
import { ConflictError, NotFoundError, ValidationError } from '../commands/domain-errors.ts';
import { toMapEvent } from '../commands/event-log.ts';
import { id, parseInput } from '../commands/input.ts';
import { mutateMap } from '../commands/mutate-map.ts';
import { foldDivergentSession } from './divergent-session.ts';
import { unofferedSkill } from './offered-skill.ts';

/** What the person can change on a running session, by action (the GraphQL mutations' inputs). */
const steeringInput = z.discriminatedUnion('action', [
  z.object({ action: z.literal('STOP'), sessionId: id }),
  z.object({ action: z.literal('SKIP_TASK'), sessionId: id, taskKey: z.string().regex(/^L\d+\.T\d+$/) }),
  z.object({
    action: z.literal('ADD_TASK'),
    sessionId: id,
    name: z.string().trim().min(1).max(120),
    query: z.string().trim().min(1).max(2000),
    skill: z.enum(DIVERGENT_SKILL_NAMES),
    priority: z.number().int().min(1).max(5).nullish(),
  }),
  z.object({ action: z.literal('SET_THRESHOLD'), sessionId: id, threshold: z.number().min(0).max(1) }),
  z.object({ action: z.literal('ADD_FEEDBACK'), sessionId: id, text: z.string().trim().min(1).max(4000) }),
]);
/** @see steeringInput */
export type SteeringInput = z.input<typeof steeringInput>;

/** Tasks the person added that wait for a level at most (one level's worth). */
const MAX_WAITING_TASKS = DIVERGENT_LIMITS.maxParallel;

/** The divergent run a steering names, or NotFoundError. */
export async function divergentRunOf(ctx: Pick<CommandContext, 'db'>, sessionId: string): Promise<AgentRun> {
  const run = await ctx.db.read.agentRun.findUnique({ where: { id: sessionId } });
  if (!run || run.agent !== AgentGraph.DIVERGENT) throw new NotFoundError('DivergentSession', sessionId);
  return run;
}

/** What the server does once a steering is stored. */
export interface SteeringEffects {
  skills: DivergentSkills;
  /** Aborts the session's tasks running in this process (`keys`, or all of them), saying why. */
  interruptTasks(runId: string, keys: string[] | 'all', reason: 'skip' | 'stop'): void;
  /** Answers the session's waiting review with a stop (its drive then writes the final output). */
  stopReview(ctx: CommandContext, questionId: string): Promise<unknown>;
}

/**
 * Stores one steering of a divergent session as a `DivergentSteered` event (one command, checked against the
 * session's state in the map's transaction), then applies it to the drive: a skip or a stop aborts the tasks
 * concerned, a stop answers a waiting review. A session that ended refuses with ConflictError and nothing
 * changes. Returns the session's run.
 */
export async function steerDivergent(ctx: CommandContext, raw: unknown, effects: SteeringEffects): Promise<AgentRun> {
  const input = parseInput(steeringInput, raw);
  const found = await divergentRunOf(ctx, input.sessionId);
  const { run, review } = await mutateMap(ctx, found.mapId, async (tx, emit) => {
    const run = await tx.agentRun.findUniqueOrThrow({ where: { id: found.id } });
    // Sessions that can still be steered: running, waiting for the person, or paused on an expired review.
    if (!isRunOpen(run.status))
      throw new ConflictError(`the divergent session has ended (${run.status.toLowerCase()}); nothing was changed`);
    const rows = await tx.event.findMany({
      where: { mapId: run.mapId, type: { startsWith: 'Divergent' } },
      orderBy: { seq: 'asc' },
    });
    const session = foldDivergentSession(run.id, rows.map(toMapEvent));
    if (session.stopRequested) throw new ConflictError('the divergent session is already stopping');
    const base = {
      runId: run.id,
      steeringId: crypto.randomUUID(),
      action: input.action,
      taskKey: null,
      task: null,
      threshold: null,
      feedback: null,
    };
    if (input.action === 'SKIP_TASK') {
      const task = session.levels.flatMap((l) => l.tasks).find((t) => t.key === input.taskKey);
      if (!task) throw new NotFoundError('DivergentTask', input.taskKey);
      if (isDivergentTaskEnded(task.status))
        throw new ConflictError(`the task ${task.key} has already ended (${task.status.toLowerCase()})`);
      if (session.skipped.includes(task.key)) throw new ConflictError(`the task ${task.key} is already skipped`);
      emit({ type: 'DivergentSteered', payload: { ...base, taskKey: task.key } });
    } else if (input.action === 'ADD_TASK') {
      const unoffered = unofferedSkill(effects.skills, input.skill);
      if (unoffered) throw new ValidationError('skill', `the skill ${input.skill} cannot be used: ${unoffered}`);
      if (session.addedTasks.filter((t) => t.level === null).length >= MAX_WAITING_TASKS)
        throw new ValidationError('name', `at most ${MAX_WAITING_TASKS} added tasks can wait for the next level`);
      const { name, query, skill } = input;
      emit({
        type: 'DivergentSteered',
        payload: { ...base, task: { name, query, skill, priority: input.priority ?? 5 } },
      });
    } else if (input.action === 'SET_THRESHOLD')
      emit({ type: 'DivergentSteered', payload: { ...base, threshold: input.threshold } });
    else if (input.action === 'ADD_FEEDBACK')
      emit({ type: 'DivergentSteered', payload: { ...base, feedback: input.text } });
    else emit({ type: 'DivergentSteered', payload: base });
    const review =
      input.action === 'STOP'
        ? await tx.agentQuestion.findFirst({
            where: {
              runId: run.id,
              kind: QuestionKind.REVIEW_DIVERGENT_TASKS,
              status: { in: ['PENDING', 'EXPIRED'] },
            },
          })
        : null;
    return { run, review };
  });
  if (input.action === 'SKIP_TASK') effects.interruptTasks(run.id, [input.taskKey], 'skip');
  if (input.action === 'STOP') {
    effects.interruptTasks(run.id, 'all', 'stop');
    if (review) await effects.stopReview(ctx, review.id);
  }
  return run;
}
