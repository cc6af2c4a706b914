import { type MapStatus, type NodeStatus, type ReadDb, RunStatus } from '@thinkingmap/db';
import { decodePayload } from '../commands/event-contracts.ts';
import { ANSWERABLE_QUESTION } from '../runs/answerable-questions.ts';

/** Runs that work now. */
const IN_FLIGHT: RunStatus[] = [RunStatus.RUNNING];
/**
 * Runs that wait: for the person (WAITING), on an expired gate the person can still answer (PAUSED), or for
 * their node's open dependencies (WAITING_FOR_DEPENDENCIES).
 */
const WAITING: RunStatus[] = [RunStatus.WAITING, RunStatus.PAUSED, RunStatus.WAITING_FOR_DEPENDENCIES];
/** The latest failures listed one by one (all of them are counted by code). */
const RECENT_FAILURES = 10;

/** A count of things in one status. */
export interface StatusCount<S extends string> {
  status: S;
  count: number;
}

/** A run that has not ended, with what it does now. */
export interface DashboardRun {
  id: string;
  mapId: string;
  mapTitle: string;
  nodeId: string | null;
  nodeQuestion: string | null;
  agent: string;
  status: RunStatus;
  /** The graph step it is in or last entered (a graph step name; clients show it in words), null before any. */
  step: string | null;
  startedAt: Date;
}

/** A question waiting for the person, with the map and node it is about. */
export interface DashboardQuestion {
  requestId: string;
  runId: string;
  kind: string;
  question: string;
  mapId: string;
  mapTitle: string;
  nodeId: string | null;
  nodeQuestion: string | null;
  askedAt: Date;
  expiresAt: Date;
}

/** The viewer's overview across all the maps they may read. */
export interface Dashboard {
  from: Date;
  to: Date;
  mapsByStatus: StatusCount<MapStatus>[];
  nodesByStatus: StatusCount<NodeStatus>[];
  runsInFlight: DashboardRun[];
  runsWaiting: DashboardRun[];
  questions: DashboardQuestion[];
  /** Tokens per UTC day in the range, every day listed (zero included), oldest first. */
  /** `estimated`: some of the sum was counted locally (an endpoint that reported no usage). */
  tokensByDay: { day: string; promptTokens: number; completionTokens: number; estimated: boolean }[];
  /** Tokens per map in the range, most first; maps that spent nothing are left out. */
  tokensByMap: {
    mapId: string;
    mapTitle: string;
    promptTokens: number;
    completionTokens: number;
    estimated: boolean;
  }[];
  /** Failed runs in the range by error code, most first. */
  errorsByCode: { code: string; count: number }[];
  /** The latest failed runs in the range. */
  recentErrors: {
    runId: string;
    mapId: string;
    mapTitle: string;
    nodeId: string | null;
    code: string;
    error: string | null;
    at: Date;
  }[];
}

/** The UTC day of an instant, `YYYY-MM-DD`. */
const dayOf = (at: Date): string => at.toISOString().slice(0, 10);

/** Every UTC day from `from` to `to`, both included. */
function daysBetween(from: Date, to: Date): string[] {
  const days: string[] = [];
  const at = new Date(`${dayOf(from)}T00:00:00.000Z`);
  while (at <= to) {
    days.push(dayOf(at));
    at.setUTCDate(at.getUTCDate() + 1);
  }
  return days;
}

/**
 * Reads the dashboard of the maps `ownerId` may read (their own). Its cost follows what it shows, not the owner's
 * history: statuses are counted and tokens summed by the database (per map, and per UTC day of the range), and
 * titles and questions are read only for the maps and nodes that appear in its lists.
 */
export async function readDashboard(db: ReadDb, ownerId: string, from: Date, to: Date): Promise<Dashboard> {
  const ofViewer = { map: { ownerId } };
  const inRange = { gte: from, lte: to };
  const [mapGroups, nodeGroups, openRuns, questions, spend, errorGroups, recentFailures] = await Promise.all([
    db.map.groupBy({ by: ['status'], where: { ownerId }, _count: { _all: true } }),
    db.node.groupBy({ by: ['status'], where: ofViewer, _count: { _all: true } }),
    db.agentRun.findMany({
      where: { ...ofViewer, status: { in: [...IN_FLIGHT, ...WAITING] } },
      select: { id: true, mapId: true, nodeId: true, agent: true, status: true, createdAt: true },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    }),
    db.agentQuestion.findMany({
      where: { ...ANSWERABLE_QUESTION, run: ofViewer },
      select: {
        id: true,
        runId: true,
        kind: true,
        question: true,
        mapId: true,
        nodeId: true,
        createdAt: true,
        expiresAt: true,
      },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    }),
    tokenSpend(db, ownerId, from, to),
    db.agentRun.groupBy({
      by: ['errorCode'],
      where: { ...ofViewer, status: RunStatus.FAILED, finishedAt: inRange },
      _count: { _all: true },
    }),
    db.agentRun.findMany({
      where: { ...ofViewer, status: RunStatus.FAILED, finishedAt: inRange },
      select: { id: true, mapId: true, nodeId: true, errorCode: true, error: true, finishedAt: true },
      orderBy: [{ finishedAt: 'desc' }, { id: 'desc' }],
      take: RECENT_FAILURES,
    }),
  ]);
  const shown = [...openRuns, ...questions, ...spend.tokensByMap, ...recentFailures];
  const mapIds = [...new Set(shown.map((row) => row.mapId))];
  const nodeIds = [...new Set([...openRuns, ...questions].flatMap((row) => (row.nodeId ? [row.nodeId] : [])))];
  const [maps, nodes, steps] = await Promise.all([
    mapIds.length === 0
      ? []
      : db.map.findMany({ where: { id: { in: mapIds }, ownerId }, select: { id: true, title: true } }),
    nodeIds.length === 0
      ? []
      : db.node.findMany({ where: { id: { in: nodeIds } }, select: { id: true, question: true } }),
    currentSteps(db, openRuns),
  ]);
  const titleOf = new Map(maps.map((map) => [map.id, map.title]));
  const mapTitle = (id: string) => titleOf.get(id) ?? '';
  const questionOf = new Map(nodes.map((node) => [node.id, node.question]));
  const nodeQuestion = (id: string | null) => (id ? (questionOf.get(id) ?? null) : null);

  const runs = openRuns.map((run) => ({
    id: run.id,
    mapId: run.mapId,
    mapTitle: mapTitle(run.mapId),
    nodeId: run.nodeId,
    nodeQuestion: nodeQuestion(run.nodeId),
    agent: run.agent,
    status: run.status,
    step: steps.get(run.id) ?? null,
    startedAt: run.createdAt,
  }));

  return {
    from,
    to,
    mapsByStatus: byStatus(mapGroups),
    nodesByStatus: byStatus(nodeGroups),
    runsInFlight: runs.filter((run) => IN_FLIGHT.includes(run.status)),
    runsWaiting: runs.filter((run) => WAITING.includes(run.status)),
    questions: questions.map((question) => ({
      requestId: question.id,
      runId: question.runId,
      kind: question.kind,
      question: question.question,
      mapId: question.mapId,
      mapTitle: mapTitle(question.mapId),
      nodeId: question.nodeId,
      nodeQuestion: nodeQuestion(question.nodeId),
      askedAt: question.createdAt,
      expiresAt: question.expiresAt,
    })),
    tokensByDay: spend.tokensByDay,
    tokensByMap: spend.tokensByMap.map((row) => ({ ...row, mapTitle: mapTitle(row.mapId) })),
    errorsByCode: errorGroups
      .map((group) => ({ code: group.errorCode ?? 'UNKNOWN', count: group._count._all }))
      .sort((a, b) => b.count - a.count || a.code.localeCompare(b.code)),
    recentErrors: recentFailures.map((run) => ({
      runId: run.id,
      mapId: run.mapId,
      mapTitle: mapTitle(run.mapId),
      nodeId: run.nodeId,
      code: run.errorCode ?? 'UNKNOWN',
      error: run.error,
      at: run.finishedAt ?? from,
    })),
  };
}

/** Grouped counts as status counts, sorted by status. */
function byStatus<S extends string>(groups: { status: S; _count: { _all: number } }[]): StatusCount<S>[] {
  return groups
    .map((group) => ({ status: group.status, count: group._count._all }))
    .sort((a, b) => a.status.localeCompare(b.status));
}

/** What a run spent, and whether its counts were estimated (an endpoint that reported no usage). */
type Spend = { promptTokens: number; completionTokens: number; tokensEstimated: boolean };

/** Adds a run's tokens to `into`; estimated when any run of it was. */
function addSpend(into: { promptTokens: number; completionTokens: number; estimated: boolean }, run: Spend) {
  into.promptTokens += run.promptTokens;
  into.completionTokens += run.completionTokens;
  into.estimated ||= run.tokensEstimated;
}

/**
 * The tokens the owner's runs created in the range spent, per map and per UTC day, from one read of the runs that spent
 * any (one pass over the range of the `(mapId, createdAt, …tokens)` index, which holds what each run spent, so rows
 * are read only for runs that spent). Summed here: Prisma's `groupBy` groups by columns, not by the day of one, and the
 * two providers store a `DateTime` differently (SQLite ISO-8601 text, PostgreSQL a timestamp), so no one expression
 * would serve both.
 */
async function tokenSpend(
  db: ReadDb,
  ownerId: string,
  from: Date,
  to: Date,
): Promise<{
  tokensByDay: Dashboard['tokensByDay'];
  tokensByMap: Omit<Dashboard['tokensByMap'][number], 'mapTitle'>[];
}> {
  const runs = await db.agentRun.findMany({
    where: {
      map: { ownerId },
      createdAt: { gte: from, lte: to },
      OR: [{ promptTokens: { gt: 0 } }, { completionTokens: { gt: 0 } }],
    },
    select: { mapId: true, createdAt: true, promptTokens: true, completionTokens: true, tokensEstimated: true },
  });
  const byDay = new Map(
    daysBetween(from, to).map((day) => [day, { day, promptTokens: 0, completionTokens: 0, estimated: false }]),
  );
  const byMap = new Map<
    string,
    { mapId: string; promptTokens: number; completionTokens: number; estimated: boolean }
  >();
  for (const run of runs) {
    const day = byDay.get(dayOf(run.createdAt));
    if (day) addSpend(day, run);
    const map = byMap.get(run.mapId) ?? { mapId: run.mapId, promptTokens: 0, completionTokens: 0, estimated: false };
    addSpend(map, run);
    byMap.set(run.mapId, map);
  }
  const total = (row: { promptTokens: number; completionTokens: number }) => row.promptTokens + row.completionTokens;
  return {
    tokensByDay: [...byDay.values()],
    tokensByMap: [...byMap.values()].sort((a, b) => total(b) - total(a) || a.mapId.localeCompare(b.mapId)),
  };
}

/**
 * The step each open run is in or last entered, from its AgentStep events: one query over the runs' maps since
 * the oldest of them started, newest first, keeping each run's latest step.
 */
async function currentSteps(
  db: ReadDb,
  runs: { id: string; mapId: string; createdAt: Date }[],
): Promise<Map<string, string>> {
  const steps = new Map<string, string>();
  if (runs.length === 0) return steps;
  const events = await db.event.findMany({
    where: { type: 'AgentStep', OR: runs.map((run) => ({ mapId: run.mapId, createdAt: { gte: run.createdAt } })) },
    select: { mapId: true, seq: true, type: true, version: true, payload: true },
    orderBy: [{ id: 'desc' }],
  });
  const open = new Set(runs.map((run) => run.id));
  for (const event of events) {
    const step = decodePayload({ ...event, type: 'AgentStep' }, event.payload);
    if (open.has(step.runId) && !steps.has(step.runId)) steps.set(step.runId, step.step);
  }
  return steps;
}
