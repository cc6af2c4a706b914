import type { Language } from '../domain/enums.ts';
import { AgentError } from '../errors/agent-error.ts';

/** How a budget is shared among calls; every value has a default ({@link BUDGET_RULES}). */
export interface BudgetRules {
  /** The most tokens one answer may reserve: a call's `max_tokens` never exceeds it. */
  maxAnswerTokens: number;
  /** A call is not made when the budget leaves its answer fewer tokens than this (it could not answer). */
  minAnswerTokens: number;
}

/** The default {@link BudgetRules}: answers up to 4,096 tokens, none made with room for fewer than 64. */
export const BUDGET_RULES: BudgetRules = { maxAnswerTokens: 4096, minAnswerTokens: 64 };

/** Where a map's budget stands: its size, what was spent, what calls in progress hold. */
export interface BudgetStanding {
  budget: number;
  spent: number;
  reserved: number;
}

/** What a call may reserve: its answer's cap and the whole it holds (prompt and answer), or nothing. */
export type BudgetGrant = { ok: true; maxTokens: number; tokens: number } | { ok: false };

/**
 * The one rule of a shared budget: a call whose prompt takes `promptTokens` may be made when what is left
 * (budget − spent − reserved by calls in progress) holds the prompt and at least `minAnswerTokens` of
 * answer; its answer is capped at what is left after the prompt, and at `maxAnswerTokens`.
 */
export function grantFor(standing: BudgetStanding, promptTokens: number, rules = BUDGET_RULES): BudgetGrant {
  const room = standing.budget - standing.spent - standing.reserved - promptTokens;
  if (room < rules.minAnswerTokens) return { ok: false };
  const maxTokens = Math.min(room, rules.maxAnswerTokens);
  return { ok: true, maxTokens, tokens: promptTokens + maxTokens };
}

const n = (value: number, language: Language) => value.toLocaleString(language === 'zh' ? 'zh-CN' : 'en-US');

/**
 * The `BUDGET_EXHAUSTED` error of a refused call, in the map's language: what was spent, the budget, what
 * calls in progress hold, what this call needed, and that it was not made.
 */
export function budgetExhausted(standing: BudgetStanding, promptTokens: number, language: Language): AgentError {
  const { budget, spent, reserved } = standing;
  const message =
    language === 'zh'
      ? `导图的 token 预算不够了：预算 ${n(budget, 'zh')}，已用 ${n(spent, 'zh')}${reserved ? `，另有 ${n(reserved, 'zh')} 被进行中的模型调用占用` : ''}。这次模型调用的提问约需 ${n(promptTokens, 'zh')} 个 token，还要留出回答的空间，所以没有调用模型。提高这张导图的 token 预算即可继续。`
      : `The map's token budget is used up: ${n(spent, 'en')} of ${n(budget, 'en')} tokens spent${reserved ? `, ${n(reserved, 'en')} more held by model calls in progress` : ''}. This model call needs about ${n(promptTokens, 'en')} tokens for its prompt plus room for an answer, so it was not made. Raise the map's token budget to go on.`;
  return new AgentError('BUDGET_EXHAUSTED', message);
}
