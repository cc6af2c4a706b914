import type { MapStatus, NodeStatus } from '@thinkingmap/db';
import { ValidationError } from '../commands/domain-errors.ts';
import { builder } from '../schema/builder.ts';
import { MapStatusEnum, NodeStatusEnum, RunStatusEnum } from '../schema/enums.type.ts';
import { type Dashboard, type DashboardQuestion, type DashboardRun, readDashboard } from './read-dashboard.ts';

/** The days a dashboard shows when asked for no range. */
const DEFAULT_DAYS = 14;
/** The longest range a dashboard covers. */
const MAX_DAYS = 366;
const DAY_MS = 86_400_000;

const MapStatusCountRef = builder.objectRef<{ status: MapStatus; count: number }>('MapStatusCount').implement({
  fields: (t) => ({ status: t.expose('status', { type: MapStatusEnum }), count: t.exposeInt('count') }),
});

const NodeStatusCountRef = builder.objectRef<{ status: NodeStatus; count: number }>('NodeStatusCount').implement({
  fields: (t) => ({ status: t.expose('status', { type: NodeStatusEnum }), count: t.exposeInt('count') }),
});

const DashboardRunRef = builder.objectRef<DashboardRun>('DashboardRun').implement({
  description: 'A run that has not ended, with its map, node and the step it is in.',
  fields: (t) => ({
    id: t.exposeID('id'),
    mapId: t.exposeID('mapId'),
    mapTitle: t.exposeString('mapTitle'),
    nodeId: t.exposeID('nodeId', { nullable: true }),
    nodeQuestion: t.exposeString('nodeQuestion', { nullable: true }),
    agent: t.exposeString('agent'),
    status: t.expose('status', { type: RunStatusEnum }),
    step: t.exposeString('step', {
      nullable: true,
      description:
        'The graph step it is in, or the one it waits in (a step name, as in AgentStep.step); null before any.',
    }),
    startedAt: t.expose('startedAt', { type: 'DateTime' }),
  }),
});

const DashboardQuestionRef = builder.objectRef<DashboardQuestion>('DashboardQuestion').implement({
  description: 'A question waiting for the person (answer it with replyToAgent(requestId)), with its map and node.',
  fields: (t) => ({
    requestId: t.exposeID('requestId'),
    runId: t.exposeID('runId'),
    kind: t.exposeString('kind'),
    question: t.exposeString('question'),
    mapId: t.exposeID('mapId'),
    mapTitle: t.exposeString('mapTitle'),
    nodeId: t.exposeID('nodeId', { nullable: true }),
    nodeQuestion: t.exposeString('nodeQuestion', { nullable: true }),
    askedAt: t.expose('askedAt', { type: 'DateTime' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
  }),
});

const DayTokensRef = builder.objectRef<Dashboard['tokensByDay'][number]>('DayTokens').implement({
  fields: (t) => ({
    day: t.exposeString('day', { description: 'The UTC day, YYYY-MM-DD.' }),
    promptTokens: t.exposeInt('promptTokens'),
    completionTokens: t.exposeInt('completionTokens'),
    estimated: t.exposeBoolean('estimated', {
      description: 'Some of these tokens were counted locally: an endpoint streamed without reporting usage.',
    }),
  }),
});

const MapTokensRef = builder.objectRef<Dashboard['tokensByMap'][number]>('MapTokens').implement({
  fields: (t) => ({
    mapId: t.exposeID('mapId'),
    mapTitle: t.exposeString('mapTitle'),
    promptTokens: t.exposeInt('promptTokens'),
    completionTokens: t.exposeInt('completionTokens'),
    estimated: t.exposeBoolean('estimated', {
      description: 'Some of these tokens were counted locally: an endpoint streamed without reporting usage.',
    }),
  }),
});

const ErrorCountRef = builder.objectRef<Dashboard['errorsByCode'][number]>('RunErrorCount').implement({
  fields: (t) => ({ code: t.exposeString('code'), count: t.exposeInt('count') }),
});

const RunErrorRef = builder.objectRef<Dashboard['recentErrors'][number]>('RunError').implement({
  description: 'A failed run.',
  fields: (t) => ({
    runId: t.exposeID('runId'),
    mapId: t.exposeID('mapId'),
    mapTitle: t.exposeString('mapTitle'),
    nodeId: t.exposeID('nodeId', { nullable: true }),
    code: t.exposeString('code', { description: 'MODEL_UNPARSEABLE, BUDGET_EXHAUSTED, …' }),
    error: t.exposeString('error', { nullable: true }),
    at: t.expose('at', { type: 'DateTime' }),
  }),
});

const DashboardRef = builder.objectRef<Dashboard>('Dashboard').implement({
  description: 'An overview of every map the viewer may read: statuses, agents at work, questions, token spend.',
  fields: (t) => ({
    from: t.expose('from', { type: 'DateTime', description: 'Start of the range token spend and errors cover.' }),
    to: t.expose('to', { type: 'DateTime' }),
    mapsByStatus: t.field({ type: [MapStatusCountRef], resolve: (d) => d.mapsByStatus }),
    nodesByStatus: t.field({ type: [NodeStatusCountRef], resolve: (d) => d.nodesByStatus }),
    runsInFlight: t.field({
      type: [DashboardRunRef],
      description: 'Runs working now, oldest first.',
      resolve: (d) => d.runsInFlight,
    }),
    runsWaiting: t.field({
      type: [DashboardRunRef],
      description: 'Runs waiting for the person (WAITING, or PAUSED on an expired review), oldest first.',
      resolve: (d) => d.runsWaiting,
    }),
    questions: t.field({
      type: [DashboardQuestionRef],
      description: 'Questions the person can answer now, oldest first.',
      resolve: (d) => d.questions,
    }),
    tokensByDay: t.field({
      type: [DayTokensRef],
      description: 'Tokens spent by runs started on each UTC day of the range (every day listed).',
      resolve: (d) => d.tokensByDay,
    }),
    tokensByMap: t.field({
      type: [MapTokensRef],
      description: 'Tokens spent in the range per map, most first.',
      resolve: (d) => d.tokensByMap,
    }),
    errorsByCode: t.field({
      type: [ErrorCountRef],
      description: 'Runs that failed in the range, by error code.',
      resolve: (d) => d.errorsByCode,
    }),
    recentErrors: t.field({
      type: [RunErrorRef],
      description: 'The latest runs that failed in the range (at most 10).',
      resolve: (d) => d.recentErrors,
    }),
  }),
});

/** The range asked for: `from`–`to`, or the last `days` UTC days up to `to` (default now). */
function rangeOf(args: { from?: Date | null; to?: Date | null; days?: number | null }): { from: Date; to: Date } {
  if (args.from && args.days != null) throw new ValidationError('days', 'give either from or days, not both');
  const to = args.to ?? new Date();
  const days = args.days ?? DEFAULT_DAYS;
  if (!Number.isInteger(days) || days < 1 || days > MAX_DAYS) {
    throw new ValidationError('days', `must be between 1 and ${MAX_DAYS}`);
  }
  const startOfToday = Date.UTC(to.getUTCFullYear(), to.getUTCMonth(), to.getUTCDate());
  const from = args.from ?? new Date(startOfToday - (days - 1) * DAY_MS);
  if (from > to) throw new ValidationError('from', 'must not be after to');
  if (to.getTime() - from.getTime() > MAX_DAYS * DAY_MS) {
    throw new ValidationError('from', `the range may cover at most ${MAX_DAYS} days`);
  }
  return { from, to };
}

builder.queryField('dashboard', (t) =>
  t.field({
    type: DashboardRef,
    description:
      'An overview of all the maps the viewer may read: maps and nodes by status, runs in flight and waiting with ' +
      'their step, questions waiting for the person, tokens per day and per map and failed runs over a range (the ' +
      `last ${DEFAULT_DAYS} UTC days when none is given). Follow viewerEvents and read it again to keep it live.`,
    errors: { types: [ValidationError], directResult: false },
    args: {
      from: t.arg({ type: 'DateTime', required: false, description: 'Start of the range (instead of `days`).' }),
      to: t.arg({ type: 'DateTime', required: false, description: 'End of the range; now when absent.' }),
      days: t.arg.int({ required: false, description: `The last N UTC days up to \`to\` (1–${MAX_DAYS}).` }),
    },
    resolve: async (_root, args, ctx) => {
      const { from, to } = rangeOf(args);
      return readDashboard(ctx.db.read, ctx.viewer.id, from, to);
    },
  }),
);
