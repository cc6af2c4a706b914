import { AgentError } from '../errors/agent-error.ts';
import type {
  ChatRequest,
  ChatResult,
  ModelPort,
  ModelUsage,
  StructuredRequest,
  StructuredResult,
} from '../ports/model-port.ts';

/** Options of {@link MeteredModel}. */
export interface MeterOptions {
  /** Tokens left for this map before the run started; null or undefined means unlimited. */
  budget?: number | null;
  /** Called after every call with that call's usage, so the server can store it per run. */
  onUsage?: (usage: ModelUsage) => void;
}

/**
 * Wraps a {@link ModelPort} to add up token usage and to refuse new calls with `BUDGET_EXHAUSTED` once the
 * budget is spent. A call that starts within budget may overshoot it; the next one is refused.
 */
export class MeteredModel implements ModelPort {
  readonly offline: boolean;
  readonly label: string;
  /** Tokens spent through this wrapper. */
  readonly usage: ModelUsage = { promptTokens: 0, completionTokens: 0 };

  constructor(
    private readonly inner: ModelPort,
    private readonly options: MeterOptions = {},
  ) {
    this.offline = inner.offline;
    this.label = inner.label;
  }

  async chat(request: ChatRequest): Promise<ChatResult> {
    this.check();
    return this.count(await this.inner.chat(request));
  }

  async structured<T>(request: StructuredRequest<T>): Promise<StructuredResult<T>> {
    this.check();
    return this.count(await this.inner.structured(request));
  }

  private check(): void {
    const { budget } = this.options;
    if (budget === null || budget === undefined) return;
    const spent = this.usage.promptTokens + this.usage.completionTokens;
    if (spent >= budget)
      throw new AgentError(
        'BUDGET_EXHAUSTED',
        `the map's token budget is spent (${spent} of ${budget} tokens); no model call was made`,
      );
  }

  private count<R extends ChatResult>(result: R): R {
    this.usage.promptTokens += result.usage.promptTokens;
    this.usage.completionTokens += result.usage.completionTokens;
    this.options.onUsage?.(result.usage);
    return result;
  }
}
