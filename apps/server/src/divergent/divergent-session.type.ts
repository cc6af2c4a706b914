import { DIVERGENT_SKILL_NAMES } from '@thinkingmap/agent-core';
import type { AgentRun } from '@thinkingmap/db';
import { DivergentOutcome, DivergentTaskStatus } from '@thinkingmap/db/enums';
import { z } from 'zod';
import { DIVERGENT_STEERING_ACTIONS } from '../commands/divergent-event-contracts.ts';
import { readEvents } from '../commands/event-log.ts';
import type { MapEvent } from '../commands/map-event.ts';
import { assertMapAccess, parseId } from '../schema/access.ts';
import { builder } from '../schema/builder.ts';
import type { GraphQLContext } from '../schema/context.ts';
import { RunStatusEnum } from '../schema/enums.type.ts';
import { ACCESS_ERRORS } from '../schema/errors.type.ts';
import {
  type AddedTask,
  type DivergentSessionState,
  foldDivergentSession,
  type SessionFeedback,
  type SessionLevel,
  type SessionTask,
} from './divergent-session.ts';
import { divergentRunOf } from './steer-divergent.ts';

type Dimension = { score: number; reason: string };
/** The options a session was started with (its run's `input` JSON column). */
const RUN_INPUT = z.record(z.string(), z.unknown());
type Scored = DivergentSessionState['scores'][number];
type Dropped = SessionLevel['dropped'][number];
export type Session = DivergentSessionState & { run: AgentRun; input: Record<string, unknown> };

/** The skills a divergent task can use (the names the planner and the API use). */
export const DivergentSkillEnum = builder.enumType('DivergentSkill', {
  description: 'A divergent task’s skill (see `divergentSkills` for which this server offers).',
  values: DIVERGENT_SKILL_NAMES,
});

/** How the person can steer a running session (the `DivergentSteered` event says which). */
export const DivergentSteeringActionEnum = builder.enumType('DivergentSteeringAction', {
  values: DIVERGENT_STEERING_ACTIONS,
});

/** Where a divergent task stands. */
export const DivergentTaskStatusEnum = builder.enumType(DivergentTaskStatus, {
  name: 'DivergentTaskStatus',
  description: 'Where a divergent task stands: SKIPPED by the person, or because the session stopped.',
});

/** How a divergent session ended. */
export const DivergentOutcomeEnum = builder.enumType(DivergentOutcome, {
  name: 'DivergentOutcome',
  description: 'FINISHED with its final output, or ALL_FAILED when every task of a level failed.',
});

export const DimensionRef = builder.objectRef<Dimension>('ScoredDimension').implement({
  description: 'One dimension of a completion score, in [0, 1], with the evaluator’s reason.',
  fields: (t) => ({ score: t.exposeFloat('score'), reason: t.exposeString('reason') }),
});

const CompletionScoreRef = builder.objectRef<Scored>('CompletionScore').implement({
  description:
    'A level’s completion score: information completeness (40%), intent match (40%), output quality (20%); ' +
    '`overall` is weighted in code.',
  fields: (t) => ({
    level: t.exposeInt('level'),
    summaryNodeId: t.id({ resolve: (s) => s.nodeId }),
    overall: t.exposeFloat('overall'),
    threshold: t.exposeFloat('threshold'),
    completeness: t.field({ type: DimensionRef, resolve: (s) => s.completeness }),
    intentMatch: t.field({ type: DimensionRef, resolve: (s) => s.intentMatch }),
    quality: t.field({ type: DimensionRef, resolve: (s) => s.quality }),
  }),
});

export const TaskRef = builder.objectRef<SessionTask>('DivergentTask').implement({
  description: 'A task of a divergent level; `key` (L1.T2) is how documents cite it.',
  fields: (t) => ({
    key: t.exposeString('key'),
    nodeId: t.exposeID('nodeId'),
    level: t.exposeInt('level'),
    name: t.exposeString('name'),
    query: t.exposeString('query'),
    skill: t.exposeString('skill'),
    priority: t.exposeInt('priority'),
    status: t.expose('status', { type: DivergentTaskStatusEnum }),
    reason: t.exposeString('reason', { nullable: true, description: 'Why it failed or was skipped.' }),
    addedByPerson: t.boolean({ resolve: (task) => task.addedId !== null }),
  }),
});

export const DroppedRef = builder.objectRef<Dropped>('DroppedDivergentTask').implement({
  description: 'A proposed task that did not run, and why (over the parallel limit, skill not configured).',
  fields: (t) => ({
    level: t.exposeInt('level'),
    name: t.exposeString('name'),
    query: t.exposeString('query'),
    skill: t.exposeString('skill'),
    priority: t.exposeInt('priority'),
    reason: t.exposeString('reason'),
  }),
});

const LevelRef = builder.objectRef<SessionLevel>('DivergentLevel').implement({
  fields: (t) => ({
    level: t.exposeInt('level'),
    plannedFromNodeId: t.id({ resolve: (l) => l.plannedFrom, description: 'The summary the tasks came from.' }),
    tasks: t.field({ type: [TaskRef], resolve: (l) => l.tasks }),
    dropped: t.field({ type: [DroppedRef], resolve: (l) => l.dropped }),
    score: t.field({ type: CompletionScoreRef, nullable: true, resolve: (l) => l.score }),
  }),
});

const FeedbackRef = builder.objectRef<SessionFeedback>('DivergentFeedback').implement({
  description: 'Feedback the person gave a session; the next summary takes it into account.',
  fields: (t) => ({
    id: t.exposeID('id'),
    text: t.exposeString('text'),
    at: t.field({ type: 'DateTime', resolve: (f) => f.createdAt }),
  }),
});

const AddedTaskRef = builder.objectRef<AddedTask>('DivergentAddedTask').implement({
  description: 'A task the person added; it runs in the next level planned (`level` once it did).',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    query: t.exposeString('query'),
    skill: t.exposeString('skill'),
    priority: t.exposeInt('priority'),
    level: t.exposeInt('level', { nullable: true, description: 'The level that ran it; null while it waits.' }),
    at: t.field({ type: 'DateTime', resolve: (a) => a.createdAt }),
  }),
});

const num = (s: Session, key: string) => Number(s.input[key]);

const DivergentSessionRef = builder.objectRef<Session>('DivergentSession').implement({
  description: 'A divergent exploration session (its id is its run’s id): levels, scores with reasons, tasks.',
  fields: (t) => ({
    id: t.id({ resolve: (s) => s.run.id }),
    mapId: t.id({ resolve: (s) => s.run.mapId }),
    nodeId: t.id({ nullable: true, resolve: (s) => s.run.nodeId }),
    status: t.field({ type: RunStatusEnum, resolve: (s) => s.run.status }),
    maxLevels: t.int({ resolve: (s) => num(s, 'maxLevels') }),
    maxParallel: t.int({ resolve: (s) => num(s, 'maxParallel') }),
    threshold: t.float({
      description: 'The threshold in force: the person’s latest change, else the session’s own.',
      resolve: (s) => s.threshold ?? num(s, 'threshold'),
    }),
    stopRequested: t.boolean({
      description: 'The person stopped the session: it ends with a final output from what exists.',
      resolve: (s) => s.stopRequested,
    }),
    feedback: t.field({ type: [FeedbackRef], resolve: (s) => s.feedback }),
    addedTasks: t.field({ type: [AddedTaskRef], resolve: (s) => s.addedTasks }),
    reviewEachLevel: t.boolean({ resolve: (s) => s.input.reviewEachLevel === true }),
    level: t.int({
      description: 'The latest level started (0 before the first).',
      resolve: (s) => s.levels.at(-1)?.level ?? 0,
    }),
    levels: t.field({ type: [LevelRef], resolve: (s) => s.levels }),
    scores: t.field({ type: [CompletionScoreRef], resolve: (s) => s.scores }),
    runningTasks: t.field({
      type: [TaskRef],
      resolve: (s) => s.levels.flatMap((l) => l.tasks.filter((task) => task.status === DivergentTaskStatus.RUNNING)),
    }),
    droppedTasks: t.field({ type: [DroppedRef], resolve: (s) => s.levels.flatMap((l) => l.dropped) }),
    outcome: t.field({
      type: DivergentOutcomeEnum,
      nullable: true,
      description:
        '`FINISHED` (with the final output), `ALL_FAILED` (every task of a level failed) or `BUDGET_EXHAUSTED` ' +
        '(the map’s token budget ran out before a final output could be written) once ended.',
      resolve: (s) => s.finished?.outcome ?? null,
    }),
    finalNodeId: t.id({ nullable: true, resolve: (s) => s.finished?.finalNodeId ?? null }),
    note: t.string({
      nullable: true,
      description: 'How the session ended, in the map’s language.',
      resolve: (s) => s.finished?.note ?? null,
    }),
    drewOn: t.stringList({
      description:
        'Keys of the finished tasks the final output drew on: those its text cites (checked against the ' +
        'session’s finished tasks), or all it was written from when it cites none. Its Sources section lists ' +
        'them with their web pages and library documents. Empty until a final output is written.',
      resolve: (s) => s.finished?.drewOn ?? [],
    }),
  }),
});

/** Every event of a map, page by page. */
async function allEvents(db: Parameters<typeof readEvents>[0], mapId: string): Promise<MapEvent[]> {
  const all: MapEvent[] = [];
  for (let after = 0; ; ) {
    const page = await readEvents(db, mapId, after, 1000);
    all.push(...page);
    if (page.length < 1000) return all;
    after = page.at(-1)!.seq;
  }
}

/** A session as the API shows it, read from its run and its map's events. */
export async function loadDivergentSession(ctx: GraphQLContext, id: string): Promise<Session> {
  const run = await divergentRunOf(ctx, id);
  await assertMapAccess(ctx, run.mapId);
  const state = foldDivergentSession(run.id, await allEvents(ctx.db.read, run.mapId));
  return { ...state, run, input: RUN_INPUT.parse(run.input ?? {}) };
}

export { DivergentSessionRef };

builder.queryField('divergentSession', (t) =>
  t.field({
    type: DivergentSessionRef,
    description: 'A divergent session by id (the id startDivergent returned): levels, score history, tasks.',
    errors: { types: ACCESS_ERRORS },
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => loadDivergentSession(ctx, parseId('id', String(args.id))),
  }),
);
