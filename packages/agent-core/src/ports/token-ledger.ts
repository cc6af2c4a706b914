import type { ModelUsage } from './model-port.ts';

/** Tokens held for one model call, until it settles with what it really spent. */
export interface TokenReservation {
  /** The most tokens the call's answer may take (its `max_tokens`); null when the map has no budget. */
  readonly maxTokens: number | null;
  /** Gives the reservation back and records what the call spent (the endpoint's usage, else its estimate). */
  settle(usage: ModelUsage): Promise<void>;
}

/**
 * A map's token budget as the model calls of every run on it draw on it at once: each call reserves its
 * prompt's estimate and its answer's cap before it is made, and settles after with its real usage, so runs
 * running at once never spend more than the budget between them (beyond one estimate's error).
 */
export interface TokenLedger {
  /**
   * Reserves for a call whose prompt is estimated at `promptTokens`. Throws `BUDGET_EXHAUSTED` (an
   * `AgentError` saying what was spent, the budget, and that the call was not made) when the budget cannot
   * hold the prompt and a minimal answer once calls in progress have settled.
   */
  reserve(promptTokens: number, signal?: AbortSignal): Promise<TokenReservation>;
}
