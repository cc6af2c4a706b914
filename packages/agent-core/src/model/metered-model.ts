import type { Language } from '../domain/enums.ts';
import type {
  CallMeter,
  ChatRequest,
  ChatResult,
  ModelPort,
  ModelUsage,
  StructuredRequest,
  StructuredResult,
} from '../ports/model-port.ts';
import type { TokenLedger, TokenReservation } from '../ports/token-ledger.ts';
import type { ModelCapabilities } from './endpoint-capabilities.ts';
import { InMemoryTokenLedger } from './in-memory-token-ledger.ts';

/** Options of {@link MeteredModel}. */
export interface MeterOptions {
  /** The map's shared budget; none means unlimited. */
  ledger?: TokenLedger;
  /** Shorthand for an {@link InMemoryTokenLedger} of this many tokens (null or undefined: unlimited). */
  budget?: number | null;
  /** The language of the budget's refusal when `budget` is given. */
  language?: Language;
  /** Called after every endpoint call with what it spent. */
  onUsage?: (usage: ModelUsage) => void;
}

const add = (total: ModelUsage, usage: ModelUsage) => {
  total.promptTokens += usage.promptTokens;
  total.completionTokens += usage.completionTokens;
  if (usage.estimated) total.estimated = true;
};

/**
 * Wraps a {@link ModelPort} to meter every call it makes to its endpoint: before each, the prompt's estimate
 * reserves from the map's {@link TokenLedger} (the answer capped to what remains, or the call refused with
 * `BUDGET_EXHAUSTED`); after each, failed ones included, the real usage settles the reservation. Adds up
 * what was spent (`usage`) and what no ledger recorded yet (`unsettled`, stored when the run settles).
 */
export class MeteredModel implements ModelPort {
  readonly offline: boolean;
  readonly label: string;
  /** Tokens spent through this wrapper. */
  readonly usage: ModelUsage = { promptTokens: 0, completionTokens: 0 };
  /** Of `usage`, what no ledger recorded as it was spent (all of it without a budget). */
  readonly unsettled: ModelUsage = { promptTokens: 0, completionTokens: 0 };
  private readonly ledger: TokenLedger | undefined;

  constructor(
    private readonly inner: ModelPort,
    private readonly options: MeterOptions = {},
  ) {
    this.offline = inner.offline;
    this.label = inner.label;
    this.ledger =
      options.ledger ??
      (options.budget === null || options.budget === undefined
        ? undefined
        : new InMemoryTokenLedger(options.budget, options.language));
  }

  capabilities(): ModelCapabilities | undefined {
    return this.inner.capabilities?.();
  }

  chat(request: ChatRequest): Promise<ChatResult> {
    return this.metered(request, (metered) => this.inner.chat(metered));
  }

  structured<T>(request: StructuredRequest<T>): Promise<StructuredResult<T>> {
    return this.metered(request, (metered) => this.inner.structured({ ...request, meter: metered.meter }));
  }

  private async metered<R extends ChatResult>(
    request: ChatRequest,
    call: (metered: ChatRequest & { meter: CallMeter }) => Promise<R>,
  ): Promise<R> {
    let opened = 0;
    const meter: CallMeter = {
      open: async (promptTokens) => {
        opened += 1;
        // A meter the caller set (an outer MeteredModel) is asked too: both budgets hold for the call.
        const outer = await request.meter?.open(promptTokens);
        let reservation: TokenReservation | null;
        try {
          reservation = this.ledger ? await this.ledger.reserve(promptTokens, request.signal) : null;
        } catch (error) {
          await outer?.close({ promptTokens: 0, completionTokens: 0 });
          throw error;
        }
        const caps = [outer?.maxTokens, reservation?.maxTokens].filter((cap): cap is number => typeof cap === 'number');
        return {
          maxTokens: caps.length ? Math.min(...caps) : null,
          close: async (usage) => {
            add(this.usage, usage);
            this.options.onUsage?.(usage);
            try {
              if (reservation) await reservation.settle(usage);
              else add(this.unsettled, usage);
            } catch (error) {
              add(this.unsettled, usage);
              throw error;
            } finally {
              await outer?.close(usage);
            }
          },
        };
      },
    };
    const result = await call({ ...request, meter });
    // A model that calls no endpoint (the offline model) reports what it spent with its answer.
    if (opened === 0) {
      add(this.usage, result.usage);
      add(this.unsettled, result.usage);
      if (result.usage.promptTokens + result.usage.completionTokens) this.options.onUsage?.(result.usage);
    }
    return result;
  }
}
