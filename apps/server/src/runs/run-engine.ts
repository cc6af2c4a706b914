import {
  AgentError,
  createCriticGraph,
  createDivergentGraph,
  createDivergentSkills,
  createProcessNodeGraph,
  createUnderstandProblemGraph,
  type DivergentSkills,
  driveRun,
  EXPIRED_REPLY,
  type KnowledgePort,
  MeteredModel,
  type ModelPort,
  PortCheckpointSaver,
  type RunOutcome,
  recoveryInput,
  resumeWith,
} from '@thinkingmap/agent-core';
import {
  AgentGraph,
  type AgentRun,
  type Database,
  isGateQuestion,
  type Map as MapRow,
  type RunOwnerColumns,
  withRelaxedWrites,
} from '@thinkingmap/db';
import type { MapEvent } from '../commands/map-event.ts';
import { RunSteering, TaskSignals } from '../divergent/run-steering.ts';
import type { EventBus } from '../events/event-bus.ts';
import { CommandStore } from './command-store.ts';
import { DriveCheckpointStore } from './drive-checkpoint-store.ts';
import { MapTokenLedgers } from './map-token-ledger.ts';
import { PrismaCheckpointStore } from './prisma-checkpoint-store.ts';
import { ReusableGraphs } from './reusable-graphs.ts';
import { RunEvents } from './run-events.ts';
import { RunLease } from './run-lease.ts';
import { RunOutbox } from './run-outbox.ts';
import { settleRun } from './settle-run.ts';

/** How often a process driving a run refreshes its lease (the run row's `updatedAt`). */
export const RUN_HEARTBEAT_MS = 2_000;
/**
 * A RUNNING run whose lease is older than this was abandoned (its process died) and may be resumed. Instances look
 * for such runs every quarter of it, so a run whose instance died goes on elsewhere within 12.5 s. A drive stops after
 * three missed refreshes (failed, or still pending when the next is due), when a refresh finds the run taken over, or
 * when its lease has gone unconfirmed for this long less one heartbeat: never two drives of one run.
 */
export const RUN_LEASE_MS = 10_000;

/** Drive input meaning "work out where the run stood from its checkpoint and stored replies" (`recover`). */
const RECOVER = Symbol('recover');
/** Marks the drive input of a new run (`start`): nothing of it is stored yet, so no checkpoint is read. */
const START = Symbol('start');
type Start = { readonly [START]: unknown };
const isStart = (input: unknown): input is Start => typeof input === 'object' && input !== null && START in input;
/** Marks the drive input of a fork (`fork`): the person's change to the copied checkpoint of its step. */
const FORK = Symbol('fork');
type Fork = { readonly [FORK]: Record<string, unknown> };
const isFork = (input: unknown): input is Fork => typeof input === 'object' && input !== null && FORK in input;

/** What a drive needs of its run's map: whom it acts as, the budget its model calls count against, the language. */
export type DriveMap = Pick<MapRow, 'ownerId' | 'tokenBudget' | 'language'>;

/** The {@link DriveMap} of a map row a command holds (the command that starts or resumes a run). */
export const driveMapOf = ({ ownerId, tokenBudget, language }: DriveMap): DriveMap => ({
  ownerId,
  tokenBudget,
  language,
});

/** How runs behave; every value has a default. */
export interface RunSettings {
  /** How long a question waits for the person before the run goes on with what it has (default 30 min). */
  questionTtlMs: number;
  /** Questions one run may ask (default 3). */
  maxQuestions: number;
  /** How often a drive refreshes its run's lease (default {@link RUN_HEARTBEAT_MS}). */
  heartbeatMs: number;
  /**
   * Lease refreshes in a row that may fail before the drive stops and leaves the run to whichever instance
   * resumes it (default 3: 6 s, under {@link RUN_LEASE_MS}).
   */
  maxMissedHeartbeats: number;
  /**
   * How old a RUNNING run's lease may grow before another instance takes it over (default {@link RUN_LEASE_MS});
   * a drive whose lease has not been confirmed for this long less one heartbeat stops itself.
   */
  leaseMs?: number;
  /**
   * How long a model call refused for want of budget waits for the map's calls in progress to settle before
   * its run fails with BUDGET_EXHAUSTED (default 60 s).
   */
  budgetWaitMs?: number;
  /**
   * Finished (completed or failed) runs per map whose checkpoints are kept, so their steps stay inspectable;
   * the checkpoints of older ones are pruned when a run settles (default 20; 0 drops them at once).
   */
  checkpointWindow?: number;
}

/** What the run engine needs from the server. */
export interface RunEngineDeps {
  db: Database;
  bus: EventBus;
  model: ModelPort;
  knowledge?: KnowledgePort;
  /** The web search provider the operator configured (divergent `webSearch`); none: the skill is not offered. */
  webSearch?: KnowledgePort;
  settings: RunSettings;
  onCommitted?: (events: readonly MapEvent[]) => void;
  /** Where failed drives and lease refreshes are reported. */
  logError: (error: unknown) => void;
  /** Who drives: stored on every run this process drives (see {@link RunOwner}). */
  owner?: RunOwner;
}

/**
 * An instance's stable id and this process's boot id, stored on the runs it drives: after a restart, runs whose
 * owner is this instance under an older boot were left by a process that is gone, and are resumed at once.
 */
export interface RunOwner {
  instanceId: string;
  bootId: string;
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
  /** The same store, its writes relaxed (the run's own checkpoints as it goes). */
  readonly #runCheckpoints: PrismaCheckpointStore;
  readonly #ledgers: MapTokenLedgers;
  readonly #runDb: Database;
  readonly #taskSignals = new TaskSignals();
  readonly #graphs: ReusableGraphs;

  readonly owner: RunOwner;

  constructor(private readonly deps: RunEngineDeps) {
    this.#checkpoints = new PrismaCheckpointStore(deps.db);
    this.#ledgers = new MapTokenLedgers(deps.db, { waitMs: deps.settings.budgetWaitMs, bus: deps.bus });
    this.#runDb = withRelaxedWrites(deps.db);
    this.#runCheckpoints = new PrismaCheckpointStore(this.#runDb);
    this.owner = deps.owner ?? { instanceId: crypto.randomUUID(), bootId: crypto.randomUUID() };
    this.#graphs = new ReusableGraphs({ knowledge: deps.knowledge, maxQuestions: deps.settings.maxQuestions });
  }

  /** {@link owner} as the run row stores it: written with every change that makes a run RUNNING for this process. */
  get ownerColumns(): RunOwnerColumns {
    return { ownerInstance: this.owner.instanceId, ownerBoot: this.owner.bootId };
  }

  /** How old a RUNNING run's lease may grow before another instance takes it over (see {@link RunSettings.leaseMs}). */
  get leaseMs(): number {
    return this.deps.settings.leaseMs ?? RUN_LEASE_MS;
  }

  /** Reports what went wrong in a drive, or around one (the injected logger). */
  get logError(): (error: unknown) => void {
    return this.deps.logError;
  }

  /** The divergent skills this server offers (with `model` for running them; availability needs none). */
  divergentSkills(model: ModelPort = this.deps.model): DivergentSkills {
    return createDivergentSkills({ model, library: this.deps.knowledge, web: this.deps.webSearch });
  }

  /** Aborts divergent tasks of a session running in this process (a skip, or a stop: all of them). */
  interruptTasks(runId: string, keys: string[] | 'all', reason: 'skip' | 'stop'): void {
    this.#taskSignals.interrupt(runId, keys, reason);
  }

  /** Whether a drive of this run is in progress in this process. */
  isActive(runId: string): boolean {
    return this.#active.has(runId);
  }

  /** Aborts a drive in progress (the run settles as CANCELLED); a paused run just loses its checkpoints. */
  abort(run: { id: string; threadId: string }): void {
    const active = this.#active.get(run.id);
    if (active) active.abort();
    else void this.#checkpoints.deleteThread(run.threadId).catch(this.deps.logError);
  }

  /**
   * Starts (input) or resumes (`resumeWith(...)`, or null after a crash) a run; drives of one run never overlap.
   * `map`: the run's map as the command that started or resumed it read it (otherwise the drive reads it).
   */
  drive(run: AgentRun, input: unknown, map?: DriveMap): Promise<void> {
    const previous = this.#chains.get(run.id) ?? Promise.resolve();
    const next = previous.then(() => this.#drive(run, input, map)).catch(this.deps.logError);
    this.#chains.set(run.id, next);
    void next.finally(() => {
      if (this.#chains.get(run.id) === next) this.#chains.delete(run.id);
    });
    return next;
  }

  /** Starts a new run from its graph input. */
  start(run: AgentRun, input: unknown, map?: DriveMap): Promise<void> {
    return this.drive(run, { [START]: input } satisfies Start, map);
  }

  /**
   * Drives a fork: its thread holds a copy of the checkpoint the original's step started from; `update` (the
   * person's change, see `forkUpdate`) is written on it as LangGraph's `updateState`, by the step before, and the
   * graph goes on from there into the step.
   */
  fork(run: AgentRun, update: Record<string, unknown>): Promise<void> {
    return this.drive(run, { [FORK]: update } satisfies Fork);
  }

  /** Resolves when every drive in progress has settled (tests and shutdown). */
  async idle(): Promise<void> {
    while (this.#chains.size) await Promise.all([...this.#chains.values()]);
  }

  /** Answers a question of a run. */
  resume(run: AgentRun, interruptId: string, reply: unknown, waiting: number, map?: DriveMap): Promise<void> {
    return this.drive(run, resumeWith(interruptId, reply, waiting), map);
  }

  /** Lets a run go on after its clarifying question expired (a gate never expires into its run: it pauses). */
  expire(run: AgentRun, interruptId: string, waiting: number): Promise<void> {
    return this.resume(run, interruptId, EXPIRED_REPLY, waiting);
  }

  /** Drives a run a dead process left mid-drive from where it last stood (see `recoveryInput`). */
  recover(run: AgentRun): Promise<void> {
    return this.drive(run, RECOVER);
  }

  /**
   * The replies a run's questions already received, by interrupt id: an expired clarifying question lets the
   * run go on; an expired gate has no reply (it waits for the person).
   */
  async #replies(runId: string): Promise<Map<string, unknown>> {
    const closed = await this.deps.db.read.agentQuestion.findMany({
      where: { runId, status: { in: ['ANSWERED', 'EXPIRED'] } },
      select: { interruptId: true, status: true, kind: true, reply: true },
    });
    const replied = closed.filter((q) => q.status === 'ANSWERED' || !isGateQuestion(q.kind));
    return new Map(replied.map((q) => [q.interruptId, q.status === 'EXPIRED' ? EXPIRED_REPLY : q.reply]));
  }

  async #drive(run: AgentRun, input: unknown, known?: DriveMap): Promise<void> {
    const { bus, onCommitted, settings } = this.deps;
    // A run's writes (its steps, commands, settles, lease) commit with relaxed durability: what a power loss
    // may take of them, the run redoes from its last stored pause (see `WriteDurability`).
    const db = this.#runDb;
    const map =
      known ??
      (await db.read.map.findUnique({
        where: { id: run.mapId },
        select: { ownerId: true, tokenBudget: true, language: true },
      }));
    if (!map) return;
    const controller = new AbortController();
    this.#active.set(run.id, controller);
    // The run's lease: while this process drives it, its row stays fresh, so no other process resumes it.
    // When it cannot be kept, the drive stops without ending the run (see RunLease).
    const lease = new RunLease({
      db,
      runId: run.id,
      owner: this.ownerColumns,
      heartbeatMs: settings.heartbeatMs,
      leaseMs: this.leaseMs,
      maxMissed: settings.maxMissedHeartbeats,
      logError: this.deps.logError,
      onLost: (cause) => controller.abort(new AgentError('RELEASED', 'the run lease could not be kept', { cause })),
    });
    lease.start();
    // The run acts as its map's owner: every write goes through the command layer like a person's.
    // Its changes carry the run and its current step (the map's history).
    const actor = { runId: run.id, step: (): string | null => events.currentStep };
    const owner = { db, bus, viewer: { id: map.ownerId }, onCommitted, actor };
    const outbox = new RunOutbox(owner, run.mapId, this.deps.logError);
    const events = new RunEvents(outbox);
    const store = new CommandStore({ db, bus, owner: owner.viewer, mapId: run.mapId, outbox, onCommitted, actor });
    // A map with a budget meters every model call against it, shared with the map's other runs.
    const ledger = map.tokenBudget === null ? undefined : this.#ledgers.forRun(run, map.language);
    const model = new MeteredModel(this.deps.model, { ledger });
    const agentDeps = { model, store, events, knowledge: this.deps.knowledge, maxQuestions: settings.maxQuestions };
    const fresh = isStart(input);
    const given = fresh ? input[START] : input;
    const checkpoints = new DriveCheckpointStore(this.#checkpoints, { fresh });
    const checkpointer = new PortCheckpointSaver(checkpoints);
    // A divergent session is long: it checkpoints every super-step straight to the database (each finished
    // parallel task is a stored write), so a process that dies mid-level resumes without redoing them. Those
    // writes are the run's, relaxed like its others: a killed process loses none of them, and a commit does not
    // wait for the disk (a synchronous flush per finished task held up every other task's model call).
    const writeThrough = run.agent === AgentGraph.DIVERGENT;
    // A node run keeps the checkpoint of every step (into the drive's memory, stored with its settle): its path
    // shows the state each step started from, and a fork starts from it.
    const everyStep = run.agent === AgentGraph.PROCESS_NODE;
    const durable = new PortCheckpointSaver(this.#runCheckpoints);
    // Process-node drives borrow a compiled graph (see ReusableGraphs); the other agents compile their own.
    const lent =
      run.agent === AgentGraph.PROCESS_NODE ? this.#graphs.lend({ model, store, events, checkpoints }) : undefined;
    const graph =
      lent?.graph ??
      (run.agent === AgentGraph.UNDERSTAND_PROBLEM
        ? createUnderstandProblemGraph(agentDeps, { checkpointer })
        : run.agent === AgentGraph.DIVERGENT
          ? createDivergentGraph(
              {
                ...agentDeps,
                skills: this.divergentSkills(model),
                steering: new RunSteering(this.deps.db, run, this.#taskSignals),
              },
              { checkpointer: durable },
            )
          : run.agent === AgentGraph.CRITIC
            ? createCriticGraph({ ...agentDeps, critic: store }, { checkpointer })
            : createProcessNodeGraph(agentDeps, { checkpointer }));
    const ref = { runId: run.id, graph: run.agent, ...(run.nodeId ? { nodeId: run.nodeId } : {}) };
    let outcome: RunOutcome;
    let endedByItself = false;
    try {
      if (isFork(given)) {
        // Stored at once, so a process that dies before the fork's first pause recovers from its step.
        await graph.updateState({ configurable: { thread_id: run.threadId } }, given[FORK]);
        await db.write((tx) => checkpoints.keepIn(db.checkpointLog, tx));
      }
      const from = isFork(given)
        ? null
        : given === RECOVER
          ? await recoveryInput(graph, run.threadId, run.input, await this.#replies(run.id))
          : given;
      outcome = await driveRun(graph, from, {
        run: ref,
        threadId: run.threadId,
        events,
        usage: () => model.usage,
        signal: controller.signal,
        store,
        ...(writeThrough ? { durability: 'sync' as const } : everyStep ? { durability: 'async' as const } : {}),
      });
      endedByItself = !controller.signal.aborted;
    } finally {
      lease.stop();
      this.#active.delete(run.id);
      if (lent) this.#graphs.giveBack(lent, endedByItself);
    }
    events.flushTokens();
    // Released: the run stays RUNNING with its last pause's checkpoint; recovery resumes it from there once
    // its lease looks abandoned.
    if (outcome.status === 'RELEASED') {
      await outbox.flush();
      return;
    }
    // The pause's checkpoint is stored with its questions; a run that ended drops its checkpoints (they would
    // grow without bound), all in the settle's one transaction.
    const settled = await settleRun(
      { ...owner, carry: outbox },
      run,
      outcome,
      model.unsettled,
      checkpoints,
      settings.questionTtlMs,
      settings.checkpointWindow ?? 0,
    );
    if (!settled) await this.#checkpoints.deleteThread(run.threadId);
  }
}
