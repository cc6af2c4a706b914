import { ConsultationStrategy } from '../../domain/enums.ts';
import { AgentError, isAgentError } from '../../errors/agent-error.ts';
import type { ConsultationMessage, ConsultationStorePort } from '../../ports/consultation-store-port.ts';
import { detached } from '../../runs/detached-context.ts';
import { ConsultationBusyError } from './consultation-busy-error.ts';
import type { ConsultationStateType } from './state.ts';
import { type TurnFailure, turnFailureOf } from './turn-failure.ts';

/** How a turn ended: it ran to its end, a newer message interrupted it, or it failed (visibly, raw text kept). */
export type TurnOutcome = { status: 'done' } | { status: 'interrupted' } | ({ status: 'failed' } & TurnFailure);

/**
 * What runs one turn: the compiled consultation graph (or anything invoked the same way). A planner that failed
 * beside the front agent's reply ends the graph with its `plannerFailure` instead of throwing (a throw would
 * abort the reply still being written); the conductor fails the turn with it.
 */
export interface TurnGraph {
  invoke(
    input: { consultationId: string },
    config: { signal: AbortSignal; configurable: { thread_id: string } },
  ): Promise<Pick<ConsultationStateType, 'unplanned' | 'plannerFailure'>>;
}

/** What the conductor tells the store about turns, so it can show them and resume a turn a restart cut short. */
export interface TurnLifecycle {
  turnStarted(consultationId: string): Promise<void>;
  turnEnded(consultationId: string, outcome: TurnOutcome): Promise<void>;
}

/** A message the conductor accepted, and the turn that will handle it. */
export interface SentMessage {
  message: ConsultationMessage;
  /** Settles when the turn that plans this message ends (it never rejects). */
  turn: Promise<TurnOutcome>;
}

interface Lane {
  current: { controller: AbortController; done: Promise<TurnOutcome> } | null;
  next: Promise<TurnOutcome> | null;
}

/**
 * Runs a consultation's turns, one at a time per consultation, and applies its strategy to a message that
 * arrives while a turn runs (LangGraph Platform's "double-texting"): INTERRUPT aborts the running turn — its
 * model call through the abort signal, and every write after it — and starts a turn that plans both
 * messages; ENQUEUE starts that turn after the running one; REJECT throws {@link ConsultationBusyError} and
 * stores nothing. A turn reads the person's unplanned messages from the store, so one turn handles every
 * message that arrived while it waited; the messages a finished turn planned are marked planned.
 */
export class ConsultationConductor {
  private readonly lanes = new Map<string, Lane>();
  private released = false;

  constructor(
    private readonly graph: TurnGraph,
    private readonly store: ConsultationStorePort & TurnLifecycle,
  ) {}

  /** Whether a turn of the consultation runs or waits to run. */
  busy(consultationId: string): boolean {
    const lane = this.lanes.get(consultationId);
    return Boolean(lane?.current || lane?.next);
  }

  /** Stores the person's message and schedules the turn that handles it, by the consultation's strategy. */
  async send(consultationId: string, text: string, strategy: ConsultationStrategy): Promise<SentMessage> {
    if (strategy === ConsultationStrategy.REJECT && this.busy(consultationId))
      throw new ConsultationBusyError(consultationId);
    const message = await this.store.appendMessage(consultationId, { role: 'PERSON', text });
    const lane = this.laneOf(consultationId);
    if (strategy === ConsultationStrategy.INTERRUPT && lane.current)
      lane.current.controller.abort(new AgentError('CANCELLED', 'a newer message interrupted the turn'));
    return { message, turn: this.schedule(consultationId, lane) };
  }

  /** Runs a turn for messages left unplanned (after a restart); joins the one scheduled if there is one. */
  resume(consultationId: string): Promise<TurnOutcome> {
    return this.schedule(consultationId, this.laneOf(consultationId));
  }

  /** Aborts the running turn and waits for every scheduled one (shutdown, deletion). */
  async stop(consultationId: string): Promise<void> {
    const lane = this.lanes.get(consultationId);
    lane?.current?.controller.abort(new AgentError('CANCELLED', 'the consultation stopped'));
    await lane?.current?.done;
    await lane?.next;
  }

  /**
   * Stops every running turn without ending it (shutdown): the store is not told the turn ended, so the
   * consultation stays busy and the next process runs the turn again from the unplanned messages.
   */
  async releaseAll(): Promise<void> {
    this.released = true;
    const lanes = [...this.lanes.values()];
    for (const lane of lanes) lane.current?.controller.abort(new AgentError('RELEASED', 'the server is stopping'));
    await Promise.all(lanes.map((lane) => lane.current?.done));
    await Promise.all(lanes.map((lane) => lane.next));
  }

  private laneOf(consultationId: string): Lane {
    let lane = this.lanes.get(consultationId);
    if (!lane) {
      lane = { current: null, next: null };
      this.lanes.set(consultationId, lane);
    }
    return lane;
  }

  private schedule(consultationId: string, lane: Lane): Promise<TurnOutcome> {
    if (lane.next) return lane.next;
    const previous = lane.current?.done ?? Promise.resolve();
    const next = previous.then(() => {
      lane.next = null;
      if (this.released) return { status: 'interrupted' } as const;
      return this.run(consultationId, lane);
    });
    lane.next = next;
    return next;
  }

  private run(consultationId: string, lane: Lane): Promise<TurnOutcome> {
    const controller = new AbortController();
    const done = this.turn(consultationId, controller.signal).finally(() => {
      if (lane.current?.controller === controller) lane.current = null;
      if (!lane.current && !lane.next) this.lanes.delete(consultationId);
    });
    lane.current = { controller, done };
    return done;
  }

  private async turn(consultationId: string, signal: AbortSignal): Promise<TurnOutcome> {
    let outcome: TurnOutcome;
    try {
      await this.store.turnStarted(consultationId);
      const final = await detached(() =>
        this.graph.invoke({ consultationId }, { signal, configurable: { thread_id: consultationId } }),
      );
      if (signal.aborted) outcome = { status: 'interrupted' };
      else if (final.plannerFailure) outcome = { status: 'failed', ...final.plannerFailure };
      else {
        await this.store.markPlanned(consultationId, final.unplanned);
        outcome = { status: 'done' };
      }
    } catch (error) {
      outcome = signal.aborted ? { status: 'interrupted' } : { status: 'failed', ...turnFailureOf(error) };
    }
    if (isAgentError(signal.reason, 'RELEASED')) return outcome;
    try {
      await this.store.turnEnded(consultationId, outcome);
    } catch {
      // The store could not record the end (the consultation was deleted): the outcome still stands.
    }
    return outcome;
  }
}
