import { AgentError } from '../errors/agent-error.ts';
import type {
  AgentName,
  ChatMessage,
  ChatRequest,
  ChatResult,
  ModelPort,
  StructuredRequest,
  StructuredResult,
} from '../ports/model-port.ts';

/** One scripted answer: the value, and optionally a promise the answer waits for (the test opens it). */
export interface ControlledAnswer {
  value: unknown;
  gate?: Promise<unknown>;
}

/** A call the model received. */
export interface ControlledCall {
  agent: AgentName;
  messages: ChatMessage[];
  /** The prompt as one text (all messages), for size and content checks. */
  prompt: string;
}

/**
 * A {@link ModelPort} for concurrency tests: answers from per-agent queues like `ScriptedModel`, but an answer
 * may wait on a gate, and a waiting call honours its abort signal (it fails with `CANCELLED` at once). Every
 * call is recorded with its prompt; `called(agent, n)` resolves when the agent's n-th call has started, so
 * tests wait on events, never on time. Structured answers stream their readable text through `onToken`.
 */
export class ControlledModel implements ModelPort {
  readonly offline = false;
  readonly label = 'controlled model';
  readonly calls: ControlledCall[] = [];
  private readonly waiters: { agent: AgentName; count: number; resolve: () => void }[] = [];

  constructor(private readonly answers: Partial<Record<AgentName, ControlledAnswer[]>>) {}

  /** Adds answers for an agent. */
  script(agent: AgentName, ...answers: ControlledAnswer[]): void {
    const queue = this.answers[agent] ?? [];
    queue.push(...answers);
    this.answers[agent] = queue;
  }

  /** Resolves once `agent` has been called `count` times (counting calls already made). */
  called(agent: AgentName, count = 1): Promise<void> {
    return new Promise((resolve) => {
      this.waiters.push({ agent, count, resolve });
      this.notify();
    });
  }

  /** The calls made to `agent`, in order. */
  callsOf(agent: AgentName): ControlledCall[] {
    return this.calls.filter((c) => c.agent === agent);
  }

  async chat(request: ChatRequest): Promise<ChatResult> {
    const value = await this.answer(request);
    const text = String(value);
    request.onToken?.(text);
    return { text, model: 'controlled', usage: { promptTokens: 10, completionTokens: 5 } };
  }

  async structured<T>(request: StructuredRequest<T>): Promise<StructuredResult<T>> {
    const value = await this.answer(request);
    const parsed = request.schema.safeParse(value);
    if (!parsed.success)
      throw new AgentError('MODEL_UNPARSEABLE', `controlled ${request.agent} answer fails ${request.schemaName}`, {
        raw: JSON.stringify(value),
      });
    const readable = request.readable
      ? Object.entries(request.readable)
          .map(([key, render]) => render((value as Record<string, unknown>)[key]))
          .join('')
      : JSON.stringify(value);
    if (readable) request.onToken?.(readable);
    const text = JSON.stringify(value);
    return {
      value: parsed.data,
      text,
      model: 'controlled',
      usage: { promptTokens: 10, completionTokens: 5 },
      repaired: false,
    };
  }

  private async answer(request: ChatRequest): Promise<unknown> {
    const prompt = request.messages.map((m) => `${m.role}: ${m.content}`).join('\n');
    this.calls.push({ agent: request.agent, messages: request.messages, prompt });
    this.notify();
    const next = this.answers[request.agent]?.shift();
    if (!next) throw new Error(`ControlledModel: no answer left for agent "${request.agent}"`);
    if (next.gate) await abortable(next.gate, request.signal);
    if (request.signal?.aborted) throw new AgentError('CANCELLED', 'model call cancelled');
    return next.value;
  }

  private notify(): void {
    for (const waiter of [...this.waiters]) {
      if (this.callsOf(waiter.agent).length >= waiter.count) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
    }
  }
}

function abortable(gate: Promise<unknown>, signal: AbortSignal | undefined): Promise<unknown> {
  if (!signal) return gate;
  if (signal.aborted) return Promise.reject(new AgentError('CANCELLED', 'model call cancelled'));
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new AgentError('CANCELLED', 'model call cancelled'));
    signal.addEventListener('abort', onAbort, { once: true });
    gate.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
