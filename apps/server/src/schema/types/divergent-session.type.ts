import type { AgentRun } from '@thinkingmap/db';
import { AgentGraph } from '@thinkingmap/db';
import {
  type DivergentSessionState,
  foldDivergentSession,
  type SessionLevel,
  type SessionTask,
} from '../../divergent/divergent-session.ts';
import { NotFoundError } from '../../errors/domain-errors.ts';
import { readEvents } from '../../events/event-log.ts';
import type { MapEvent } from '../../events/map-event.ts';
import { assertMapAccess, parseId } from '../access.ts';
import { builder } from '../builder.ts';
import { RunStatusEnum } from './enums.type.ts';
import { ACCESS_ERRORS } from './errors.type.ts';

type Dimension = { score: number; reason: string };
type Scored = DivergentSessionState['scores'][number];
type Dropped = SessionLevel['dropped'][number];
type Session = DivergentSessionState & { run: AgentRun; input: Record<string, unknown> };

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
    status: t.exposeString('status', { description: '`PLANNED`, `RUNNING`, `DONE` or `FAILED`.' }),
    reason: t.exposeString('reason', { nullable: true, description: 'Why it failed.' }),
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
    threshold: t.float({ resolve: (s) => s.scores.at(-1)?.threshold ?? num(s, 'threshold') }),
    reviewEachLevel: t.boolean({ resolve: (s) => s.input.reviewEachLevel === true }),
    level: t.int({
      description: 'The latest level started (0 before the first).',
      resolve: (s) => s.levels.at(-1)?.level ?? 0,
    }),
    levels: t.field({ type: [LevelRef], resolve: (s) => s.levels }),
    scores: t.field({ type: [CompletionScoreRef], resolve: (s) => s.scores }),
    runningTasks: t.field({
      type: [TaskRef],
      resolve: (s) => s.levels.flatMap((l) => l.tasks.filter((task) => task.status === 'RUNNING')),
    }),
    droppedTasks: t.field({ type: [DroppedRef], resolve: (s) => s.levels.flatMap((l) => l.dropped) }),
    outcome: t.string({
      nullable: true,
      description: '`FINISHED` or `ALL_FAILED` once ended.',
      resolve: (s) => s.finished?.outcome ?? null,
    }),
    finalNodeId: t.id({ nullable: true, resolve: (s) => s.finished?.finalNodeId ?? null }),
    note: t.string({
      nullable: true,
      description: 'How the session ended, in the map’s language.',
      resolve: (s) => s.finished?.note ?? null,
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

builder.queryField('divergentSession', (t) =>
  t.field({
    type: DivergentSessionRef,
    description: 'A divergent session by id (the id startDivergent returned): levels, score history, tasks.',
    errors: { types: ACCESS_ERRORS },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const id = parseId('id', String(args.id));
      const run = await ctx.db.read.agentRun.findUnique({ where: { id } });
      if (!run || run.agent !== AgentGraph.DIVERGENT) throw new NotFoundError('DivergentSession', id);
      await assertMapAccess(ctx, run.mapId);
      const state = foldDivergentSession(run.id, await allEvents(ctx.db.read, run.mapId));
      return { ...state, run, input: (run.input ?? {}) as Record<string, unknown> };
    },
  }),
);
