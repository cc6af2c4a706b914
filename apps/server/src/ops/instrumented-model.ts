import type {
  ChatRequest,
  ChatResult,
  ModelCapabilities,
  ModelPort,
  StructuredRequest,
  StructuredResult,
} from '@thinkingmap/agent-core';
import { propertyOf } from '../commands/input.ts';
import type { ServerMetrics } from './metrics.ts';

/**
 * The agents' model port with Prometheus metrics around each call: calls, tokens, duration and errors by
 * agent. It changes nothing of what the model answers or throws.
 */
export class InstrumentedModel implements ModelPort {
  readonly #inner: ModelPort;
  readonly #metrics: ServerMetrics;

  constructor(inner: ModelPort, metrics: ServerMetrics) {
    this.#inner = inner;
    this.#metrics = metrics;
  }

  get offline(): boolean {
    return this.#inner.offline;
  }

  get label(): string {
    return this.#inner.label;
  }

  capabilities(): ModelCapabilities | undefined {
    return this.#inner.capabilities?.();
  }

  chat(request: ChatRequest): Promise<ChatResult> {
    return this.#measure(request, () => this.#inner.chat(request));
  }

  structured<T>(request: StructuredRequest<T>): Promise<StructuredResult<T>> {
    return this.#measure(request, () => this.#inner.structured(request));
  }

  async #measure<R extends ChatResult>(request: ChatRequest, call: () => Promise<R>): Promise<R> {
    const { agent } = request;
    const m = this.#metrics;
    const stop = m.modelDuration.startTimer({ agent });
    try {
      const result = await call();
      m.modelCalls.inc({ agent, outcome: 'ok' });
      m.modelTokens.inc({ agent, kind: 'prompt' }, result.usage.promptTokens);
      m.modelTokens.inc({ agent, kind: 'completion' }, result.usage.completionTokens);
      return result;
    } catch (error) {
      m.modelCalls.inc({ agent, outcome: 'error' });
      const code = propertyOf(error, 'code');
      m.modelErrors.inc({ agent, code: typeof code === 'string' ? code : 'UNEXPECTED' });
      throw error;
    } finally {
      stop();
    }
  }
}
