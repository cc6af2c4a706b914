import type {
  AgentQuestion,
  DivergentProgress,
  EventPort,
  ModelUsage,
  RunRef,
  StepOutcome,
} from '@thinkingmap/agent-core';
import { AgentStepPhase } from '@thinkingmap/db/enums';
import type { PendingEvent } from '../commands/map-event.ts';
import type { RunOutbox } from './run-outbox.ts';

/** Streamed text is sent in pieces at most this often, so a fast model does not write an event per token. */
const TOKEN_FLUSH_MS = 120;

/**
 * The agents' EventPort: steps and streamed text become sequenced map events (AgentStep, AgentTokens).
 * Questions, results and failures are recorded by the run manager from the run's outcome, together with
 * the run's new status, so they are not written here.
 */
export class RunEvents implements EventPort {
  /** Text streamed and not sent yet, by node: a divergent level's tasks stream at once, each to its own node. */
  readonly #pending = new Map<string | null, { runId: string; text: string }>();
  #timer: NodeJS.Timeout | undefined;

  constructor(private readonly outbox: RunOutbox) {}

  /** The step the run is in (the last one entered), recorded on the changes it makes. */
  currentStep: string | null = null;

  stepEntered(run: RunRef, step: string): void {
    this.currentStep = step;
    this.#step(run, step, AgentStepPhase.ENTERED, null, null);
  }

  stepLeft(run: RunRef, step: string, outcome: StepOutcome, durationMs: number): void {
    this.#step(run, step, AgentStepPhase.LEFT, outcome, Math.round(durationMs));
  }

  #step(
    run: RunRef,
    step: string,
    phase: AgentStepPhase,
    outcome: StepOutcome | null,
    durationMs: number | null,
  ): void {
    this.flushTokens();
    const payload = {
      runId: run.runId,
      graph: run.graph,
      nodeId: run.nodeId ?? null,
      step,
      branch: run.branch ?? null,
      phase,
      outcome,
      durationMs,
    };
    this.outbox.push([{ type: 'AgentStep', payload }]);
  }

  questionAsked(_run: RunRef, _question: AgentQuestion): void {}

  tokensStreamed(run: RunRef, text: string): void {
    const nodeId = run.nodeId ?? null;
    const pending = this.#pending.get(nodeId);
    if (pending) pending.text += text;
    else this.#pending.set(nodeId, { runId: run.runId, text });
    this.#timer ??= setTimeout(() => this.flushTokens(), TOKEN_FLUSH_MS);
  }

  divergent(run: RunRef, progress: DivergentProgress): void {
    this.flushTokens();
    this.outbox.push([{ type: progress.type, payload: { runId: run.runId, ...progress.payload } } as PendingEvent]);
  }

  runFinished(_run: RunRef, _output: unknown, _usage: ModelUsage): void {
    this.flushTokens();
  }

  runFailed(): void {
    this.flushTokens();
  }

  /** Sends the streamed text gathered so far as one AgentTokens event per node. */
  flushTokens(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#pending.size === 0) return;
    const events = [...this.#pending].map(([nodeId, { runId, text }]) => ({
      type: 'AgentTokens' as const,
      payload: { runId, nodeId, text },
    }));
    this.#pending.clear();
    this.outbox.push(events);
  }
}
