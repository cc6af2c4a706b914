import type { AgentGraph, QuestionKind } from '../domain/enums.ts';
import type { AgentErrorCode } from '../errors/agent-error.ts';
import type { DivergentProgress } from './divergent-progress.ts';
import type { ModelUsage } from './model-port.ts';

/** Which run an event belongs to. */
export interface RunRef {
  runId: string;
  /** The graph running: one of {@link AgentGraph}'s values. */
  graph: string;
  /** The thinking-map node the run works on, when it has one. */
  nodeId?: string;
  /**
   * The parallel branch a step runs as, when the graph runs it once per item at the same time (a `Send` per
   * divergent task: the task's key, `L1.T2`): several visits of one step at once are told apart by it.
   */
  branch?: string;
}

/** A question the run waits on. `requestId` is what the person's reply must quote. */
export interface AgentQuestion {
  requestId: string;
  /** What kind of answer the run waits for. */
  kind: QuestionKind;
  question: string;
  /** Why the agent asks, and what it has so far (proposal, draft), for the UI to render. */
  context: Record<string, unknown>;
}

/** How a graph step ended: `interrupted` when it paused for the person (`AgentStep.outcome`). */
export type StepOutcome = 'done' | 'interrupted' | 'failed';

/**
 * What agents tell the outside world while they run. The server turns each call into a persisted,
 * sequenced map event (AgentStep, AgentQuestion, AgentTokens, RunFinished, RunFailed). Implementations
 * must not throw; a failing listener must not fail a run.
 */
export interface EventPort {
  /** A graph step started. */
  stepEntered(run: RunRef, step: string): void;
  /** A graph step ended; `outcome` is `interrupted` when it paused for the person. */
  stepLeft(run: RunRef, step: string, outcome: StepOutcome, durationMs: number): void;
  /** The run paused with a question for the person. */
  questionAsked(run: RunRef, question: AgentQuestion): void;
  /** A piece of streamed model text for the message being written on a node. */
  tokensStreamed(run: RunRef, text: string): void;
  /** The run finished. */
  runFinished(run: RunRef, output: unknown, usage: ModelUsage): void;
  /** The run failed; `raw` keeps unparseable model output. */
  runFailed(run: RunRef, failure: { code: AgentErrorCode | 'INTERNAL'; reason: string; raw?: string }): void;
  /** Optional: a divergent session's progress (level started, task started or finished, scored, finished). */
  divergent?(run: RunRef, progress: DivergentProgress): void;
}

/** An {@link EventPort} that drops everything. */
export const SILENT_EVENTS: EventPort = {
  stepEntered() {},
  stepLeft() {},
  questionAsked() {},
  tokensStreamed() {},
  runFinished() {},
  runFailed() {},
};
