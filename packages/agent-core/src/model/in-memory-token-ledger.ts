import type { Language } from '../domain/enums.ts';
import type { ModelUsage } from '../ports/model-port.ts';
import type { TokenLedger, TokenReservation } from '../ports/token-ledger.ts';
import { BUDGET_RULES, type BudgetRules, budgetExhausted, grantFor } from './token-budget.ts';

/**
 * A {@link TokenLedger} held in memory, for one process's calls on one budget (agent-core's own tests and
 * embedders without a database). It refuses at once instead of waiting for calls in progress; the server's
 * ledger, shared by every run of a map, waits for them.
 */
export class InMemoryTokenLedger implements TokenLedger {
  spent = 0;
  reserved = 0;

  constructor(
    readonly budget: number,
    private readonly language: Language = 'en',
    private readonly rules: BudgetRules = BUDGET_RULES,
  ) {}

  async reserve(promptTokens: number): Promise<TokenReservation> {
    const standing = { budget: this.budget, spent: this.spent, reserved: this.reserved };
    const grant = grantFor(standing, promptTokens, this.rules);
    if (!grant.ok) throw budgetExhausted(standing, promptTokens, this.language);
    this.reserved += grant.tokens;
    return {
      maxTokens: grant.maxTokens,
      settle: async (usage: ModelUsage) => {
        this.reserved -= grant.tokens;
        this.spent += usage.promptTokens + usage.completionTokens;
      },
    };
  }
}
