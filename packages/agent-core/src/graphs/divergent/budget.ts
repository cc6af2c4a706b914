import { isAgentError } from '../../errors/agent-error.ts';
import type { DivergentUpdate } from './state.ts';

/** Whether `error` is the map's token budget refusing a model call (no call was made). */
export const isBudgetExhausted = (error: unknown) => isAgentError(error) && error.code === 'BUDGET_EXHAUSTED';

/**
 * Wraps a step whose model call comes before any write (summary, evaluation, plan): when the map's budget
 * refuses the call, the step changes nothing but `budgetOut`, and the session goes to its final output.
 */
export function untilBudgetRunsOut<A extends unknown[]>(step: (...args: A) => Promise<DivergentUpdate>) {
  return async (...args: A): Promise<DivergentUpdate> => {
    try {
      return await step(...args);
    } catch (error) {
      if (isBudgetExhausted(error)) return { budgetOut: true };
      throw error;
    }
  };
}
