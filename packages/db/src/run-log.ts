import type Sqlite from 'better-sqlite3';
import type { AgentQuestion, AgentRun, Node } from '../generated/sqlite/client.ts';
import type { ConversationKind, DecisionKind, QuestionStatus } from '../generated/sqlite/enums.ts';
import { type DependedOnNode, dependenciesOf } from './agent-reads.ts';
import type { Tx } from './database.ts';
import { ACTIVE_RUN_STATUSES } from './enums.ts';
import { preparedInTransaction, sqliteTime } from './prepared-statements.ts';
import { sqliteRows } from './sqlite-rows.ts';

/** A question's status and kind, and its run's status (whether it can still be answered). */
export type QuestionState = Pick<AgentQuestion, 'status' | 'kind'> & { runStatus: AgentRun['status'] };

/** Where an agent stands with a node, and the node's map. */
export type NodeAgentState = Pick<Node, 'mapId' | 'status' | 'intent' | 'strategy'>;

/**
 * A change of where an agent is with a node: the fields given are set (`statusReason` may be null; the others,
 * when given, are not), the others kept.
 */
export type NodeStateChange = Partial<Pick<Node, 'status' | 'statusReason' | 'intent' | 'strategy'>>;

/** Tokens a drive spent that no ledger recorded yet (added to its run's). */
export interface RunTokens {
  promptTokens: number;
  completionTokens: number;
}

/** A run on a node, as a new run on it checks it (busy, or paused on a gate it replaces). */
export type NodeRun = Pick<AgentRun, 'id' | 'mapId' | 'agent' | 'status'>;

/**
 * The few columns an agent run's writes look up, inside the caller's write transaction: the run's progress
 * (its state on a node, its decisions) rides along with every command of the run, and every settle checks the
 * run's status. On SQLite they are statements prepared once on the write transaction's connection (as the map
 * log's are); on PostgreSQL they are Prisma calls.
 */
export interface RunLog {
  /** A node's map and its agent state (status, intent, strategy); null when there is no such node. */
  nodeState(tx: Tx, nodeId: string): Promise<NodeAgentState | null>;
  /** A run's map and whether it recorded a decision under `key`; null when there is no such run. */
  runDecision(tx: Tx, runId: string, key: string): Promise<{ mapId: string; decided: boolean } | null>;
  /** A run's status; null when there is no such run. */
  runStatus(tx: Tx, runId: string): Promise<AgentRun['status'] | null>;
  /** Whether a run already stored the question it asked at this interrupt. */
  hasQuestion(tx: Tx, runId: string, interruptId: string): Promise<boolean>;
  /** A question's status and kind with its run's status; null when there is no such question. */
  questionState(tx: Tx, questionId: string): Promise<QuestionState | null>;
  /**
   * The threads of a map's finished (completed or failed) runs after the latest `skip` of them, latest first,
   * at most `take`.
   */
  finishedThreads(tx: Tx, mapId: string, skip: number, take: number): Promise<string[]>;
  /** A node's conversation of `kind` with the node's map; null when there is none. */
  conversation(tx: Tx, nodeId: string, kind: ConversationKind): Promise<{ id: string; mapId: string } | null>;
  /** The latest message of a conversation not deleted (by time, then id), as a new message answers it. */
  latestMessageId(tx: Tx, conversationId: string): Promise<string | null>;
  /** The nodes that depend on a node. */
  dependentsOf(tx: Tx, nodeId: string): Promise<string[]>;
  /** The nodes a node depends on, in their order among their siblings. */
  dependenciesOf(tx: Tx, nodeId: string): Promise<DependedOnNode[]>;
  /** The runs on a node that are active or paused (see `ACTIVE_RUN_STATUSES`). */
  activeOrPausedRuns(tx: Tx, nodeId: string): Promise<NodeRun[]>;
  /** How many questions of a run still wait for an answer. */
  pendingQuestions(tx: Tx, runId: string): Promise<number>;
  /** What the model chose in its latest decision of `kind` on a node (its `choice`); null when it made none. */
  latestModelChoice(tx: Tx, nodeId: string, kind: DecisionKind): Promise<unknown>;
  /**
   * Changes a node's agent state (`updatedAt` too, not its version) and returns the node as it now is; null when
   * there is no such node.
   */
  setNodeState(tx: Tx, nodeId: string, change: NodeStateChange): Promise<Node | null>;
  /**
   * Records how a drive of a run ended when nothing reads the run back (a pause): its status, the tokens it spent
   * added to its own, and none of its map's budget held any more.
   */
  settleRunRow(tx: Tx, runId: string, status: AgentRun['status'], spent: RunTokens): Promise<void>;
  /** A node as it is in the transaction; null when there is none. */
  node(tx: Tx, nodeId: string): Promise<Node | null>;
  /**
   * Moves a question whose status is one of `from` to `change.status` (with its answer time and reply when given) and
   * returns it as it now is; null when it was in no status of `from`.
   */
  resolveQuestion(
    tx: Tx,
    questionId: string,
    from: readonly QuestionStatus[],
    change: QuestionChange,
  ): Promise<AgentQuestion | null>;
  /** A run after one of its questions was answered: RUNNING again when `running`, else as it is; null when none. */
  resumedRun(tx: Tx, runId: string, running: boolean): Promise<AgentRun | null>;
  /**
   * Records how a run ended (`end`: its status and the fields of that end), the tokens its last drive spent added to
   * its own and none of its map's budget held any more; returns the run as it now is, null when there is none.
   */
  endRun(tx: Tx, runId: string, end: RunEnd, spent: RunTokens): Promise<AgentRun | null>;
}

/** A question's new status, with when and how it was answered. */
export interface QuestionChange {
  status: QuestionStatus;
  answeredAt?: Date;
  reply?: object;
}

/** How a run ended: its status and, as the end has them, its output, error and finish time. */
export interface RunEnd {
  status: AgentRun['status'];
  output?: unknown;
  error?: string | null;
  errorCode?: string | null;
  raw?: string | null;
  finishedAt?: Date;
}

/** The statuses of {@link RunLog.activeOrPausedRuns}. */
const ACTIVE_OR_PAUSED = [...ACTIVE_RUN_STATUSES, 'PAUSED'] as const;

const FINISHED = ['COMPLETED', 'FAILED'] as const;

/** The run log through Prisma (PostgreSQL, and SQLite before its connection is known). */
export function prismaRunLog(): RunLog {
  return {
    nodeState: (tx, nodeId) =>
      tx.node.findUnique({
        where: { id: nodeId },
        select: { mapId: true, status: true, intent: true, strategy: true },
      }),
    async runDecision(tx, runId, key) {
      const run = await tx.agentRun.findUnique({
        where: { id: runId },
        select: { mapId: true, decisions: { where: { key }, select: { id: true }, take: 1 } },
      });
      return run ? { mapId: run.mapId, decided: run.decisions.length > 0 } : null;
    },
    async runStatus(tx, runId) {
      return (await tx.agentRun.findUnique({ where: { id: runId }, select: { status: true } }))?.status ?? null;
    },
    async hasQuestion(tx, runId, interruptId) {
      const where = { runId_interruptId: { runId, interruptId } };
      return (await tx.agentQuestion.findUnique({ where, select: { id: true } })) !== null;
    },
    async questionState(tx, questionId) {
      const question = await tx.agentQuestion.findUnique({
        where: { id: questionId },
        select: { status: true, kind: true, run: { select: { status: true } } },
      });
      return question ? { status: question.status, kind: question.kind, runStatus: question.run.status } : null;
    },
    async finishedThreads(tx, mapId, skip, take) {
      const runs = await tx.agentRun.findMany({
        where: { mapId, status: { in: [...FINISHED] } },
        orderBy: [{ finishedAt: 'desc' }, { id: 'desc' }],
        skip,
        take,
        select: { threadId: true },
      });
      return runs.map((r) => r.threadId);
    },
    async conversation(tx, nodeId, kind) {
      const conversation = await tx.conversation.findUnique({
        where: { nodeId_kind: { nodeId, kind } },
        select: { id: true, node: { select: { mapId: true } } },
      });
      return conversation ? { id: conversation.id, mapId: conversation.node.mapId } : null;
    },
    async latestMessageId(tx, conversationId) {
      const latest = await tx.message.findFirst({
        where: { conversationId, deletedAt: null },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        select: { id: true },
      });
      return latest?.id ?? null;
    },
    async dependentsOf(tx, nodeId) {
      const dependents = await tx.dependency.findMany({ where: { dependsOnId: nodeId }, select: { nodeId: true } });
      return dependents.map((d) => d.nodeId);
    },
    dependenciesOf,
    activeOrPausedRuns: (tx, nodeId) =>
      tx.agentRun.findMany({
        where: { nodeId, status: { in: [...ACTIVE_OR_PAUSED] } },
        select: { id: true, mapId: true, agent: true, status: true },
      }),
    pendingQuestions: (tx, runId) => tx.agentQuestion.count({ where: { runId, status: 'PENDING' } }),
    async latestModelChoice(tx, nodeId, kind) {
      const latest = await tx.decision.findFirst({
        where: { nodeId, kind, decidedBy: 'MODEL' },
        orderBy: { createdAt: 'desc' },
        select: { choice: true },
      });
      return latest?.choice ?? null;
    },
    async setNodeState(tx, nodeId, change) {
      const [node] = await tx.node.updateManyAndReturn({ where: { id: nodeId }, data: change });
      return node ?? null;
    },
    async settleRunRow(tx, runId, status, spent) {
      await tx.agentRun.update({
        where: { id: runId },
        data: {
          status,
          promptTokens: { increment: spent.promptTokens },
          completionTokens: { increment: spent.completionTokens },
          tokensReserved: 0,
        },
      });
    },
    node: (tx, nodeId) => tx.node.findUnique({ where: { id: nodeId } }),
    async resolveQuestion(tx, questionId, from, change) {
      const [updated] = await tx.agentQuestion.updateManyAndReturn({
        where: { id: questionId, status: { in: [...from] } },
        data: change,
      });
      return updated ?? null;
    },
    async resumedRun(tx, runId, running) {
      if (!running) return tx.agentRun.findUnique({ where: { id: runId } });
      const [run] = await tx.agentRun.updateManyAndReturn({ where: { id: runId }, data: { status: 'RUNNING' } });
      return run ?? null;
    },
    async endRun(tx, runId, { output, ...end }, spent) {
      const [run] = await tx.agentRun.updateManyAndReturn({
        where: { id: runId },
        data: {
          ...end,
          ...(output === undefined ? {} : { output: output as object }),
          promptTokens: { increment: spent.promptTokens },
          completionTokens: { increment: spent.completionTokens },
          tokensReserved: 0,
        },
      });
      return run ?? null;
    },
  };
}

/** Rows of the tables whose rows the run log returns whole, decoded as Prisma returns them. */
function decoders(db: Sqlite.Database) {
  const rows = sqliteRows(db);
  return {
    asNode: rows<Node>('Node'),
    asQuestion: rows<AgentQuestion>('AgentQuestion'),
    asRun: rows<AgentRun>('AgentRun'),
  };
}

/** The run log on SQLite, on the write transaction's connection (see `preparedInTransaction`). */
export function sqliteRunLog(connection: () => Sqlite.Database | undefined, fallback: RunLog): RunLog {
  const statements = preparedInTransaction(
    connection,
    (db) => ({
      nodeState: db.prepare<[string], NodeAgentState>(
        'SELECT "mapId", "status", "intent", "strategy" FROM "Node" WHERE "id" = ?',
      ),
      runDecision: db.prepare<[string, string], { mapId: string; decided: number }>(
        'SELECT "mapId", EXISTS (SELECT 1 FROM "Decision" WHERE "runId" = "AgentRun"."id" AND "key" = ?) AS "decided" ' +
          'FROM "AgentRun" WHERE "id" = ?',
      ),
      runStatus: db.prepare<[string], Pick<AgentRun, 'status'>>('SELECT "status" FROM "AgentRun" WHERE "id" = ?'),
      hasQuestion: db.prepare<[string, string]>(
        'SELECT 1 FROM "AgentQuestion" WHERE "runId" = ? AND "interruptId" = ?',
      ),
      questionState: db.prepare<[string], QuestionState>(
        'SELECT q."status", q."kind", r."status" AS "runStatus" FROM "AgentQuestion" q ' +
          'JOIN "AgentRun" r ON r."id" = q."runId" WHERE q."id" = ?',
      ),
      // Finished times are stored as ISO text in one format (Prisma's), so text order is time order, as Prisma
      // orders them on SQLite.
      finishedThreads: db
        .prepare<[string, number, number], string>(
          `SELECT "threadId" FROM "AgentRun" WHERE "mapId" = ? AND "status" IN ('${FINISHED.join("', '")}') ` +
            'ORDER BY "finishedAt" DESC, "id" DESC LIMIT ? OFFSET ?',
        )
        .pluck(),
      conversation: db.prepare<[string, string], { id: string; mapId: string }>(
        'SELECT c."id", n."mapId" FROM "Conversation" c JOIN "Node" n ON n."id" = c."nodeId" ' +
          'WHERE c."nodeId" = ? AND c."kind" = ?',
      ),
      // Times are ISO text in one format (Prisma's): text order is time order.
      latestMessageId: db
        .prepare<[string], string>(
          'SELECT "id" FROM "Message" WHERE "conversationId" = ? AND "deletedAt" IS NULL ' +
            'ORDER BY "createdAt" DESC, "id" DESC LIMIT 1',
        )
        .pluck(),
      dependentsOf: db.prepare<[string], string>('SELECT "nodeId" FROM "Dependency" WHERE "dependsOnId" = ?').pluck(),
      dependenciesOf: db
        .prepare<[string], DependedOnNode>(
          'SELECT n."id", n."question", n."status", n."position" FROM "Dependency" d ' +
            'JOIN "Node" n ON n."id" = d."dependsOnId" WHERE d."nodeId" = ? ORDER BY n."position"',
        )
        .safeIntegers(false),
      activeOrPausedRuns: db.prepare<[string], NodeRun>(
        `SELECT "id", "mapId", "agent", "status" FROM "AgentRun" WHERE "nodeId" = ? ` +
          `AND "status" IN ('${ACTIVE_OR_PAUSED.join("', '")}')`,
      ),
      pendingQuestions: db
        .prepare<[string], number>(`SELECT COUNT(*) FROM "AgentQuestion" WHERE "runId" = ? AND "status" = 'PENDING'`)
        .pluck()
        .safeIntegers(false),
      // Times are ISO text in one format (Prisma's): text order is time order.
      latestModelChoice: db
        .prepare<[string, string], string>(
          `SELECT "choice" FROM "Decision" WHERE "nodeId" = ? AND "kind" = ? AND "decidedBy" = 'MODEL' ` +
            'ORDER BY "createdAt" DESC LIMIT 1',
        )
        .pluck(),
      // A field not given is kept: status, intent and strategy are never set to null here, the reason may be.
      setNodeState: db
        .prepare<[string | null, number, string | null, string | null, string | null, string, string]>(
          'UPDATE "Node" SET "status" = COALESCE(?, "status"), ' +
            '"statusReason" = CASE WHEN ? THEN ? ELSE "statusReason" END, "intent" = COALESCE(?, "intent"), ' +
            '"strategy" = COALESCE(?, "strategy"), "updatedAt" = ? WHERE "id" = ? RETURNING *',
        )
        .safeIntegers(false),
      settleRunRow: db.prepare<[string, number, number, string, string]>(
        'UPDATE "AgentRun" SET "status" = ?, "promptTokens" = "promptTokens" + ?, ' +
          '"completionTokens" = "completionTokens" + ?, "tokensReserved" = 0, "updatedAt" = ? WHERE "id" = ?',
      ),
      ...decoders(db),
      node: db.prepare<[string]>('SELECT * FROM "Node" WHERE "id" = ?'),
      // A field not given is kept (answeredAt, reply); the statuses it may move from are a JSON array.
      resolveQuestion: db.prepare<[string, number, string | null, number, string | null, string, string]>(
        'UPDATE "AgentQuestion" SET "status" = ?, "answeredAt" = CASE WHEN ? THEN ? ELSE "answeredAt" END, ' +
          '"reply" = CASE WHEN ? THEN ? ELSE "reply" END ' +
          'WHERE "id" = ? AND "status" IN (SELECT "value" FROM json_each(?)) RETURNING *',
      ),
      run: db.prepare<[string]>('SELECT * FROM "AgentRun" WHERE "id" = ?'),
      runningAgain: db.prepare<[string, string]>(
        `UPDATE "AgentRun" SET "status" = 'RUNNING', "updatedAt" = ? WHERE "id" = ? RETURNING *`,
      ),
      // Fields an end does not have are kept (a cancelled run keeps no output: it never had one).
      endRun: db.prepare<unknown[]>(
        'UPDATE "AgentRun" SET "status" = ?, "output" = CASE WHEN ? THEN ? ELSE "output" END, ' +
          '"error" = CASE WHEN ? THEN ? ELSE "error" END, "errorCode" = CASE WHEN ? THEN ? ELSE "errorCode" END, ' +
          '"raw" = CASE WHEN ? THEN ? ELSE "raw" END, ' +
          '"finishedAt" = COALESCE(?, "finishedAt"), "promptTokens" = "promptTokens" + ?, ' +
          '"completionTokens" = "completionTokens" + ?, "tokensReserved" = 0, "updatedAt" = ? WHERE "id" = ? RETURNING *',
      ),
    }),
    'the run log',
  );
  return {
    async nodeState(tx, nodeId) {
      const s = statements();
      if (!s) return fallback.nodeState(tx, nodeId);
      return s.nodeState.get(nodeId) ?? null;
    },
    async runDecision(tx, runId, key) {
      const s = statements();
      if (!s) return fallback.runDecision(tx, runId, key);
      const row = s.runDecision.get(key, runId);
      return row ? { mapId: row.mapId, decided: Boolean(row.decided) } : null;
    },
    async runStatus(tx, runId) {
      const s = statements();
      if (!s) return fallback.runStatus(tx, runId);
      return s.runStatus.get(runId)?.status ?? null;
    },
    async hasQuestion(tx, runId, interruptId) {
      const s = statements();
      if (!s) return fallback.hasQuestion(tx, runId, interruptId);
      return s.hasQuestion.get(runId, interruptId) !== undefined;
    },
    async questionState(tx, questionId) {
      const s = statements();
      if (!s) return fallback.questionState(tx, questionId);
      return s.questionState.get(questionId) ?? null;
    },
    async finishedThreads(tx, mapId, skip, take) {
      const s = statements();
      if (!s) return fallback.finishedThreads(tx, mapId, skip, take);
      return s.finishedThreads.all(mapId, take, skip);
    },
    async conversation(tx, nodeId, kind) {
      const s = statements();
      if (!s) return fallback.conversation(tx, nodeId, kind);
      return s.conversation.get(nodeId, kind) ?? null;
    },
    async latestMessageId(tx, conversationId) {
      const s = statements();
      if (!s) return fallback.latestMessageId(tx, conversationId);
      return s.latestMessageId.get(conversationId) ?? null;
    },
    async dependentsOf(tx, nodeId) {
      const s = statements();
      if (!s) return fallback.dependentsOf(tx, nodeId);
      return s.dependentsOf.all(nodeId);
    },
    async dependenciesOf(tx, nodeId) {
      const s = statements();
      if (!s) return fallback.dependenciesOf(tx, nodeId);
      return s.dependenciesOf.all(nodeId);
    },
    async activeOrPausedRuns(tx, nodeId) {
      const s = statements();
      if (!s) return fallback.activeOrPausedRuns(tx, nodeId);
      return s.activeOrPausedRuns.all(nodeId);
    },
    async pendingQuestions(tx, runId) {
      const s = statements();
      if (!s) return fallback.pendingQuestions(tx, runId);
      return s.pendingQuestions.get(runId) ?? 0;
    },
    async latestModelChoice(tx, nodeId, kind) {
      const s = statements();
      if (!s) return fallback.latestModelChoice(tx, nodeId, kind);
      const choice = s.latestModelChoice.get(nodeId, kind);
      return choice === undefined ? null : JSON.parse(choice);
    },
    async setNodeState(tx, nodeId, change) {
      const s = statements();
      if (!s) return fallback.setNodeState(tx, nodeId, change);
      const row = s.setNodeState.get(
        change.status ?? null,
        given(change.statusReason),
        change.statusReason ?? null,
        change.intent ?? null,
        change.strategy ?? null,
        sqliteTime(new Date()),
        nodeId,
      );
      return decoded(s.asNode, row);
    },
    async settleRunRow(tx, runId, status, spent) {
      const s = statements();
      if (!s) return fallback.settleRunRow(tx, runId, status, spent);
      s.settleRunRow.run(status, spent.promptTokens, spent.completionTokens, sqliteTime(new Date()), runId);
    },
    async node(tx, nodeId) {
      const s = statements();
      if (!s) return fallback.node(tx, nodeId);
      return decoded(s.asNode, s.node.get(nodeId));
    },
    async resolveQuestion(tx, questionId, from, change) {
      const s = statements();
      if (!s) return fallback.resolveQuestion(tx, questionId, from, change);
      const row = s.resolveQuestion.get(
        change.status,
        given(change.answeredAt),
        change.answeredAt === undefined ? null : sqliteTime(change.answeredAt),
        given(change.reply),
        change.reply === undefined ? null : JSON.stringify(change.reply),
        questionId,
        JSON.stringify(from),
      );
      return decoded(s.asQuestion, row);
    },
    async resumedRun(tx, runId, running) {
      const s = statements();
      if (!s) return fallback.resumedRun(tx, runId, running);
      const row = running ? s.runningAgain.get(sqliteTime(new Date()), runId) : s.run.get(runId);
      return decoded(s.asRun, row);
    },
    async endRun(tx, runId, end, spent) {
      const s = statements();
      if (!s) return fallback.endRun(tx, runId, end, spent);
      const row = s.endRun.get(
        end.status,
        given(end.output),
        end.output === undefined ? null : JSON.stringify(end.output),
        given(end.error),
        end.error ?? null,
        given(end.errorCode),
        end.errorCode ?? null,
        given(end.raw),
        end.raw ?? null,
        end.finishedAt === undefined ? null : sqliteTime(end.finishedAt),
        spent.promptTokens,
        spent.completionTokens,
        sqliteTime(new Date()),
        runId,
      );
      return decoded(s.asRun, row);
    },
  };
}

/** 1 when a field of a change is given (the statement sets it), 0 when it is kept. */
const given = (value: unknown) => (value === undefined ? 0 : 1);

/** A row read by a statement of one's own, as Prisma returns it; null when there was none. */
const decoded = <T>(decode: (row: unknown) => T, row: unknown): T | null => (row === undefined ? null : decode(row));
