import { Command, INTERRUPT, isInterrupted } from '@langchain/langgraph';
import { isAgentError } from '../errors/agent-error.ts';
import type { AgentQuestion, EventPort, RunRef } from '../ports/event-port.ts';
import type { ModelUsage } from '../ports/model-port.ts';
import type { StorePort } from '../ports/store-port.ts';
import { detached } from './detached-context.ts';

/**
 * How a run step ended: waiting for the person, completed, failed, cancelled, or released (the drive was
 * aborted with an `AgentError('RELEASED')` reason: the run itself goes on from its last checkpoint).
 */
export type RunOutcome =
  | { status: 'WAITING'; questions: AgentQuestion[] }
  | { status: 'COMPLETED'; output: Record<string, unknown> }
  | { status: 'FAILED'; code: string; reason: string; raw?: string }
  | { status: 'CANCELLED' }
  | { status: 'RELEASED' };

/**
 * When LangGraph stores checkpoints during a drive: `'exit'` only when the graph stops (a question for the
 * person, the end, a failure); `'async'` / `'sync'` after every super-step as well.
 */
export type Durability = 'exit' | 'async' | 'sync';

/** The part of a compiled graph `driveRun` uses. */
export interface InvokableGraph {
  invoke(
    input: unknown,
    config: { configurable: Record<string, unknown>; signal?: AbortSignal; durability?: Durability },
  ): Promise<unknown>;
}

/** Options of {@link driveRun}. */
export interface DriveRunOptions {
  run: RunRef;
  /** The run's LangGraph thread (one per run). */
  threadId: string;
  events: EventPort;
  /** Usage so far (e.g. `MeteredModel.usage`), reported with RunFinished. */
  usage: () => ModelUsage;
  signal?: AbortSignal;
  /** When given with `run.nodeId`, a failed run marks the node FAILED with its reason. */
  store?: StorePort;
  /**
   * Default `'exit'`: a drive stores one checkpoint when it stops, not one per step. A paused run resumes
   * from it exactly as before; a process that dies mid-drive leaves the run at its previous pause (or its
   * input), and {@link recoveryInput} replays it from there with the replies the person already gave —
   * every write a step makes carries an idempotency key, so replaying writes nothing twice.
   */
  durability?: Durability;
}

/**
 * Starts or resumes a run and turns what happened into a {@link RunOutcome}, emitting RunFinished or
 * RunFailed (questions were already emitted by the steps). Pass the input to start, or
 * {@link resumeWith} to answer a question. Nothing is thrown: failures are values with a code.
 */
export async function driveRun(graph: InvokableGraph, input: unknown, options: DriveRunOptions): Promise<RunOutcome> {
  const { run, events } = options;
  try {
    const result = await detached(() =>
      graph.invoke(input, {
        configurable: { thread_id: options.threadId, run_id: run.runId },
        signal: options.signal,
        durability: options.durability ?? 'exit',
      }),
    );
    if (isInterrupted<Omit<AgentQuestion, 'requestId'>>(result)) {
      return {
        status: 'WAITING',
        questions: result[INTERRUPT].map((i) => ({ ...i.value!, requestId: i.id ?? run.runId })),
      };
    }
    const output = result as Record<string, unknown>;
    events.runFinished(run, output, options.usage());
    return { status: 'COMPLETED', output };
  } catch (error) {
    if (options.signal?.aborted) {
      // Given up by this process, not ended: no event, the node keeps its status for whoever resumes it.
      if (isAgentError(options.signal.reason, 'RELEASED')) return { status: 'RELEASED' };
      events.runFailed(run, { code: 'CANCELLED', reason: 'the run was cancelled' });
      return { status: 'CANCELLED' };
    }
    const failure = isAgentError(error)
      ? { code: error.code, reason: error.message, ...(error.raw === undefined ? {} : { raw: error.raw }) }
      : { code: 'INTERNAL' as const, reason: error instanceof Error ? error.message : String(error) };
    events.runFailed(run, failure);
    // The failure is the outcome and RunFailed carries it; a node that could not be marked keeps its status.
    if (options.store && run.nodeId)
      await options.store.setNodeStatus(run.nodeId, 'FAILED', failure.reason).catch(() => undefined);
    return { status: 'FAILED', ...failure };
  }
}

/**
 * The command that answers question `requestId` with `reply`. When several questions wait in one run
 * (parallel branches), the reply is addressed to that question's interrupt id.
 */
export function resumeWith(requestId: string, reply: unknown, waitingQuestions = 1): Command {
  return new Command({ resume: waitingQuestions > 1 ? { [requestId]: reply } : reply });
}
