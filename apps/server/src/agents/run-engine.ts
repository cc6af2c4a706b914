import {
  createProcessNodeGraph,
  createUnderstandProblemGraph,
  driveRun,
  EXPIRED_REPLY,
  type KnowledgePort,
  MeteredModel,
  type ModelPort,
  PortCheckpointSaver,
  type RunOutcome,
  resumeWith,
} from '@thinkingmap/agent-core';
import type { AgentRun, Database, User } from '@thinkingmap/db';
import type { EventBus } from '../events/event-bus.ts';
import type { MapEvent } from '../events/map-event.ts';
import { CommandStore } from './command-store.ts';
import { PrismaCheckpointStore } from './prisma-checkpoint-store.ts';
import { RunEvents } from './run-events.ts';
import { RunOutbox } from './run-outbox.ts';
import { settleRun } from './settle-run.ts';

/** How often a process driving a run refreshes its lease (the run row's `updatedAt`). */
export const RUN_HEARTBEAT_MS = 10_000;
/** A RUNNING run whose lease is older than this was abandoned (its process died) and may be resumed. */
export const RUN_LEASE_MS = 45_000;

/** How runs behave; every value has a default. */
export interface RunSettings {
  /** How long a question waits for the person before the run goes on with what it has (default 30 min). */
  questionTtlMs: number;
  /** Questions one run may ask (default 3). */
  maxQuestions: number;
}

/** What the run engine needs from the server. */
export interface RunEngineDeps {
  db: Database;
  bus: EventBus;
  model: ModelPort;
  knowledge?: KnowledgePort;
  settings: RunSettings;
  onCommitted?: (events: readonly MapEvent[]) => void;
}

/**
 * Drives agent graphs for runs stored in the database: starts them, resumes them with a reply, and records
 * how each drive ended. Thinking-map nodes are data the graphs read and write through the store port; each
 * run is one LangGraph thread whose checkpoints live in the database, so a paused run survives a restart.
 */
export class RunEngine {
  readonly #active = new Map<string, AbortController>();
  readonly #chains = new Map<string, Promise<void>>();
  readonly #checkpoints: PrismaCheckpointStore;

  constructor(private readonly deps: RunEngineDeps) {
    this.#checkpoints = new PrismaCheckpointStore(deps.db);
  }

  async #touch(runId: string): Promise<void> {
    await this.deps.db
      .write((tx) =>
        tx.agentRun.updateMany({ where: { id: runId, status: 'RUNNING' }, data: { updatedAt: new Date() } }),
      )
      .catch(() => undefined);
  }

  /** Whether a drive of this run is in progress in this process. */
  isActive(runId: string): boolean {
    return this.#active.has(runId);
  }

  /** Aborts a drive in progress (the run settles as CANCELLED); a paused run just loses its checkpoints. */
  abort(run: { id: string; threadId: string }): void {
    const active = this.#active.get(run.id);
    if (active) active.abort();
    else void this.#checkpoints.deleteThread(run.threadId).catch(() => undefined);
  }

  /** Starts (input) or resumes (`resumeWith(...)`, or null after a crash) a run; drives of one run never overlap. */
  drive(run: AgentRun, input: unknown): Promise<void> {
    const previous = this.#chains.get(run.id) ?? Promise.resolve();
    const next = previous
      .then(() => this.#drive(run, input))
      .catch((error) => console.error('[thinkingmap] run engine:', error));
    this.#chains.set(run.id, next);
    void next.finally(() => {
      if (this.#chains.get(run.id) === next) this.#chains.delete(run.id);
    });
    return next;
  }

  /** Resolves when every drive in progress has settled (tests and shutdown). */
  async idle(): Promise<void> {
    while (this.#chains.size) await Promise.all([...this.#chains.values()]);
  }

  /** Answers a question of a run. */
  resume(run: AgentRun, interruptId: string, reply: unknown, waiting: number): Promise<void> {
    return this.drive(run, resumeWith(interruptId, reply, waiting));
  }

  /** Lets a run go on after its question expired. */
  expire(run: AgentRun, interruptId: string, waiting: number): Promise<void> {
    return this.resume(run, interruptId, EXPIRED_REPLY, waiting);
  }

  async #drive(run: AgentRun, input: unknown): Promise<void> {
    const { db, bus, onCommitted, settings } = this.deps;
    const map = await db.prisma.map.findUnique({ where: { id: run.mapId }, include: { owner: true } });
    if (!map) return;
    const controller = new AbortController();
    this.#active.set(run.id, controller);
    // The run's lease: while this process drives it, its row stays fresh, so no other process resumes it.
    const heartbeat = setInterval(() => void this.#touch(run.id), RUN_HEARTBEAT_MS);
    heartbeat.unref();
    await this.#touch(run.id);
    const outbox = new RunOutbox(db, bus, run.mapId, onCommitted);
    const events = new RunEvents(outbox);
    const store = new CommandStore({ db, bus, owner: map.owner as User, outbox, onCommitted });
    const budget = map.tokenBudget === null ? null : Math.max(0, map.tokenBudget - map.tokensUsed);
    const model = new MeteredModel(this.deps.model, { budget });
    const agentDeps = { model, store, events, knowledge: this.deps.knowledge, maxQuestions: settings.maxQuestions };
    const checkpointer = new PortCheckpointSaver(this.#checkpoints);
    const graph =
      run.agent === 'understand-problem'
        ? createUnderstandProblemGraph(agentDeps, { checkpointer })
        : createProcessNodeGraph(agentDeps, { checkpointer });
    const ref = { runId: run.id, graph: run.agent, ...(run.nodeId ? { nodeId: run.nodeId } : {}) };
    let outcome: RunOutcome;
    try {
      outcome = await driveRun(graph, input, {
        run: ref,
        threadId: run.threadId,
        events,
        usage: () => model.usage,
        signal: controller.signal,
        store,
      });
    } finally {
      clearInterval(heartbeat);
      this.#active.delete(run.id);
    }
    events.flushTokens();
    await outbox.flush();
    await settleRun({ db, bus, onCommitted }, run, outcome, model.usage, settings.questionTtlMs);
    // A run that ended can never resume: its checkpoints go, so they do not grow without bound.
    if (outcome.status !== 'WAITING') await this.#checkpoints.deleteThread(run.threadId);
  }
}
