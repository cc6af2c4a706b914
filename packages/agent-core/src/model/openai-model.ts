import OpenAI from 'openai';
import { AgentError } from '../errors/agent-error.ts';
import type {
  ChatMessage,
  ChatRequest,
  ChatResult,
  ModelPort,
  ModelUsage,
  StructuredRequest,
  StructuredResult,
} from '../ports/model-port.ts';
import { estimatePromptTokens, estimateTextTokens } from './estimate-tokens.ts';
import type { OpenAiModelConfig } from './model-config.ts';
import { toModelError } from './model-errors.ts';
import { readableAttempts } from './readable-attempts.ts';
import { jsonInstruction, jsonSchemaOf, parseStructured, repairMessages } from './structured-output.ts';

type ResponseFormat = OpenAI.Chat.Completions.ChatCompletionCreateParams['response_format'];

const addUsage = (a: ModelUsage, b: ModelUsage): ModelUsage => ({
  promptTokens: a.promptTokens + b.promptTokens,
  completionTokens: a.completionTokens + b.completionTokens,
});

/**
 * A {@link ModelPort} over any OpenAI-compatible endpoint through the `openai` SDK. The SDK times out each
 * attempt and retries 429, 5xx, connection errors and timeouts with exponential backoff (honouring
 * `retry-after`); what still fails becomes an `AgentError`. Structured answers are validated with zod and
 * repaired once; a second failure is `MODEL_UNPARSEABLE` with the raw text kept. Each call to the endpoint
 * is metered (`request.meter`): its prompt estimated with a real tokenizer before it is made, its answer
 * capped (`max_tokens`), and what it spent reported after, failed calls included.
 */
export class OpenAiModel implements ModelPort {
  readonly offline = false;
  readonly label: string;
  private readonly client: OpenAI;

  constructor(private readonly config: OpenAiModelConfig) {
    this.client = new OpenAI({
      apiKey: config.apiKey,
      baseURL: config.baseURL,
      timeout: config.timeoutMs ?? 60_000,
      maxRetries: config.maxRetries ?? 2,
    });
    this.label = `${config.model}${config.baseURL ? ` via ${config.baseURL}` : ''}`;
  }

  async chat(request: ChatRequest): Promise<ChatResult> {
    return this.complete(request, request.messages, undefined);
  }

  async structured<T>(request: StructuredRequest<T>): Promise<StructuredResult<T>> {
    const messages = [...request.messages, jsonInstruction(request.schema)];
    const format = this.responseFormat(request);
    const stream = readableAttempts(request);
    const first = await this.complete(stream.attempt(), messages, format);
    const parsed = parseStructured(first.text, request.schema);
    if (parsed.ok) return { ...first, value: parsed.value, repaired: false };
    const second = await this.complete(
      stream.attempt(),
      [...messages, ...repairMessages(first.text, parsed.error)],
      format,
    );
    const usage = addUsage(first.usage, second.usage);
    const repaired = parseStructured(second.text, request.schema);
    if (repaired.ok) return { ...second, usage, value: repaired.value, repaired: true };
    throw new AgentError(
      'MODEL_UNPARSEABLE',
      `the model's ${request.schemaName} answer failed its schema twice: ${repaired.error}`,
      { raw: second.text, cause: { first: first.text, usage } },
    );
  }

  private responseFormat(request: StructuredRequest<unknown>): ResponseFormat {
    if (this.config.responseFormat === 'json_object') return { type: 'json_object' };
    return {
      type: 'json_schema',
      json_schema: { name: request.schemaName, schema: jsonSchemaOf(request.schema), strict: false },
    };
  }

  private modelFor(request: ChatRequest): string {
    return this.config.agentModels?.[request.agent] ?? this.config.model;
  }

  /**
   * One call to the endpoint, metered: reserved before (refused with `BUDGET_EXHAUSTED`, no call made),
   * settled after with the endpoint's usage — or, when the call failed or the endpoint reported none, the
   * prompt's estimate and the tokens of what was streamed.
   */
  private async complete(
    request: ChatRequest,
    messages: ChatMessage[],
    format: ResponseFormat | undefined,
  ): Promise<ChatResult> {
    const schema = format?.type === 'json_schema' ? JSON.stringify(format.json_schema.schema ?? {}) : '';
    const meter = request.meter;
    const estimate = meter ? await estimatePromptTokens(messages, schema) : 0;
    const call = meter ? await meter.open(estimate) : null;
    const streamed = { text: '' };
    let reported: ModelUsage | null = null;
    try {
      const result = await this.send(request, messages, format, call?.maxTokens ?? null, streamed);
      reported = result.usage;
      return result;
    } finally {
      if (call) {
        const answer = reported?.completionTokens || (await estimateTextTokens(streamed.text));
        await call.close({ promptTokens: reported?.promptTokens || estimate, completionTokens: answer });
      }
    }
  }

  private async send(
    request: ChatRequest,
    messages: ChatMessage[],
    format: ResponseFormat | undefined,
    maxTokens: number | null,
    streamed: { text: string },
  ): Promise<ChatResult> {
    const model = this.modelFor(request);
    const cap = maxTokens === null ? {} : { [this.config.maxTokensField ?? 'max_tokens']: maxTokens };
    try {
      if (!request.onToken) {
        const completion = await this.client.chat.completions.create(
          { model, messages, response_format: format, ...cap },
          { signal: request.signal },
        );
        const text = completion.choices[0]?.message.content ?? '';
        streamed.text = text;
        return {
          text,
          model: completion.model || model,
          usage: {
            promptTokens: completion.usage?.prompt_tokens ?? 0,
            completionTokens: completion.usage?.completion_tokens ?? 0,
          },
        };
      }
      // The SDK's timeout covers the wait for the response to start; a stream that stalls half-way would
      // otherwise hold the run (and its node) forever. No chunk for `timeoutMs` ends it as MODEL_TIMEOUT.
      const idleMs = this.config.timeoutMs ?? 60_000;
      const stall = new AbortController();
      const abortOnCaller = () => stall.abort();
      request.signal?.addEventListener('abort', abortOnCaller, { once: true });
      let stalled = false;
      let timer = setTimeout(() => {
        stalled = true;
        stall.abort();
      }, idleMs);
      const rearm = () => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          stalled = true;
          stall.abort();
        }, idleMs);
      };
      let usage: ModelUsage = { promptTokens: 0, completionTokens: 0 };
      try {
        const stream = await this.client.chat.completions.create(
          { model, messages, response_format: format, stream: true, stream_options: { include_usage: true }, ...cap },
          { signal: stall.signal },
        );
        for await (const part of stream) {
          rearm();
          const piece = part.choices[0]?.delta?.content;
          if (piece) {
            streamed.text += piece;
            request.onToken(piece);
          }
          if (part.usage)
            usage = { promptTokens: part.usage.prompt_tokens, completionTokens: part.usage.completion_tokens };
        }
        // The SDK ends an aborted stream quietly: an abort must not pass for a complete answer.
        if (stall.signal.aborted) throw new Error('stream aborted');
      } catch (error) {
        if (stalled && !request.signal?.aborted) {
          throw new AgentError('MODEL_TIMEOUT', `the model stopped streaming for ${idleMs} ms`, {
            cause: error,
            raw: streamed.text,
          });
        }
        if (request.signal?.aborted) throw new AgentError('CANCELLED', 'model call cancelled', { cause: error });
        throw error;
      } finally {
        clearTimeout(timer);
        request.signal?.removeEventListener('abort', abortOnCaller);
      }
      return { text: streamed.text, model, usage };
    } catch (error) {
      throw toModelError(error, request.signal);
    }
  }
}
