import { isGraphInterrupt, type LangGraphRunnableConfig } from '@langchain/langgraph';
import type { AgentQuestion, EventPort } from '../../ports/event-port.ts';
import { runRefOf } from './run-config.ts';

/** A graph step: LangGraph calls it with the state and the run's config and merges what it returns. */
export type Step<S, U> = (state: S, config: LangGraphRunnableConfig) => Promise<U>;

/**
 * Wraps a step so the outside world sees it: `stepEntered`, then `stepLeft` with `done`, `failed` or
 * `interrupted`. When the step pauses with `interrupt()`, each pending question is reported through
 * `questionAsked` with the interrupt's id as `requestId`, and the interrupt is re-thrown untouched: it is
 * LangGraph's control flow, never swallowed. A resumed step reports itself entered again (it re-runs).
 * A step the graph runs as parallel branches (`Send`) names each with `branchOf` (see `RunRef.branch`), so
 * each branch's entering and leaving pair up even while the others run.
 */
export function instrumentStep<S extends { nodeId?: string | null }, U>(
  graph: string,
  name: string,
  events: EventPort,
  step: Step<S, U>,
  options: { branchOf?: (state: S) => string | null | undefined } = {},
): Step<S, U> {
  return async (state, config) => {
    const branch = options.branchOf?.(state);
    const run = { ...runRefOf(config, graph, state.nodeId), ...(branch ? { branch } : {}) };
    const started = performance.now();
    events.stepEntered(run, name);
    try {
      const update = await step(state, config);
      events.stepLeft(run, name, 'done', performance.now() - started);
      return update;
    } catch (error) {
      if (isGraphInterrupt(error)) {
        for (const pending of error.interrupts) {
          const value = pending.value as Omit<AgentQuestion, 'requestId'>;
          events.questionAsked(run, { ...value, requestId: pending.id ?? `${run.runId}:${name}` });
        }
        events.stepLeft(run, name, 'interrupted', performance.now() - started);
      } else {
        events.stepLeft(run, name, 'failed', performance.now() - started);
      }
      throw error;
    }
  };
}
