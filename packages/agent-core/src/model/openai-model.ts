import OpenAI from 'openai';
import type { z } from 'zod';
import { AgentError } from '../errors/agent-error.ts';
import type {
  AgentName,
  ChatMessage,
  ChatRequest,
  ChatResult,
  ModelPort,
  ModelUsage,
  StructuredRequest,
  StructuredResult,
} from '../ports/model-port.ts';
import {
  type CapabilityRegistry,
  FULL_CAPABILITIES,
  type ModelCapabilities,
  processCapabilities,
  type RefusedFeature,
  refusedFeature,
} from './endpoint-capabilities.ts';
import { estimatePromptTokens, estimateTextTokens } from './estimate-tokens.ts';
import type { OpenAiModelConfig } from './model-config.ts';
import { toModelError } from './model-errors.ts';
import { readableAttempts } from './readable-attempts.ts';
import { streamChat } from './stream-chat.ts';
import { jsonInstruction, jsonSchemaOf, parseStructured, repairMessages } from './structured-output.ts';

type Body = OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;
/** What a call adds to the chat body: a response format, or a tool and its choice. */
type Extras = Pick<Body, 'response_format' | 'tools' | 'tool_choice'>;

/** Where a call goes: the client of its endpoint, the endpoint's URL and the model name. */
interface Target {
  client: OpenAI;
  baseURL: string;
  model: string;
}

/** One call as the port was asked for it: where it goes, what it says, and its request fields per capability. */
interface CallPlan {
  target: Target;
  request: ChatRequest;
  messages: ChatMessage[];
  extrasFor: (caps: ModelCapabilities) => Extras;
  tool: { args: string } | undefined;
}

/** A function the model is asked to call (`pnpm model:check` asks for one). */
export interface ToolRequest<T> extends ChatRequest {
  tool: { name: string; description: string; schema: z.ZodType<T> };
}

const addUsage = (a: ModelUsage, b: ModelUsage): ModelUsage => ({
  promptTokens: a.promptTokens + b.promptTokens,
  completionTokens: a.completionTokens + b.completionTokens,
  ...(a.estimated || b.estimated ? { estimated: true } : {}),
});

const sentFeatures = (extras: Extras, streaming: boolean, caps: ModelCapabilities): RefusedFeature[] => [
  ...(extras.response_format ? (['response_format'] as const) : []),
  ...(extras.tool_choice ? (['tool_choice'] as const) : []),
  ...(streaming && caps.streamUsage === 'reported' ? (['stream_options'] as const) : []),
];

/**
 * A {@link ModelPort} over any OpenAI-compatible endpoint through the `openai` SDK. The SDK times out each
 * attempt and retries 429, 5xx, connection errors and timeouts with exponential backoff (honouring
 * `retry-after`); what still fails becomes an `AgentError`. A request feature the endpoint refuses with a 4xx
 * naming it (`response_format`, `stream_options`, `tool_choice`) is dropped for a weaker one and the call
 * retried; the registry remembers it for that endpoint and model. Structured answers are validated with zod
 * and repaired once; a second failure is `MODEL_UNPARSEABLE` with the raw text kept. Each call to the endpoint
 * is metered (`request.meter`): its prompt estimated with a real tokenizer before it is made, its answer
 * capped (`max_tokens`), and what it spent reported after, failed calls included.
 */
export class OpenAiModel implements ModelPort {
  readonly offline = false;
  readonly label: string;
  readonly #clients = new Map<string, OpenAI>();
  readonly #initial: ModelCapabilities;

  constructor(
    private readonly config: OpenAiModelConfig,
    private readonly registry: CapabilityRegistry = processCapabilities,
  ) {
    this.label = `${config.model}${config.baseURL ? ` via ${config.baseURL}` : ''}`;
    this.#initial = { ...FULL_CAPABILITIES, ...config.capabilities };
  }

  /** What the endpoint of `agent` (the default endpoint and model when absent) was found to accept so far. */
  capabilities(agent?: AgentName): ModelCapabilities {
    const target = this.#target(agent);
    return this.registry.get(target.baseURL, target.model, this.#initial);
  }

  chat(request: ChatRequest): Promise<ChatResult> {
    return this.#call(request, request.messages, () => ({}));
  }

  async structured<T>(request: StructuredRequest<T>): Promise<StructuredResult<T>> {
    const messages = [...request.messages, jsonInstruction(request.schema, request.schemaName)];
    const extras = (caps: ModelCapabilities): Extras => {
      if (caps.structuredOutput === 'prompt') return {};
      if (caps.structuredOutput === 'json_object') return { response_format: { type: 'json_object' } };
      const schema = jsonSchemaOf(request.schema);
      return {
        response_format: { type: 'json_schema', json_schema: { name: request.schemaName, schema, strict: false } },
      };
    };
    const stream = readableAttempts(request);
    const first = await this.#call(stream.attempt(), messages, extras);
    const parsed = parseStructured(first.text, request.schema);
    if (parsed.ok) return { ...first, value: parsed.value, repaired: false };
    const second = await this.#call(
      stream.attempt(),
      [...messages, ...repairMessages(first.text, parsed.error)],
      extras,
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

  /**
   * Asks the model to call `request.tool` (named in `tool_choice`, or `auto` where naming it is refused) and
   * validates its arguments with the tool's schema; an answer in text is read as the arguments too.
   */
  async toolCall<T>(request: ToolRequest<T>): Promise<ChatResult & { value: T }> {
    const { name, description, schema } = request.tool;
    const tools: Extras['tools'] = [
      { type: 'function', function: { name, description, parameters: jsonSchemaOf(schema) } },
    ];
    const calls = { args: '' };
    const result = await this.#call(
      { ...request, onToken: undefined },
      request.messages,
      (caps) => ({
        tools,
        tool_choice: caps.toolChoice === 'named' ? { type: 'function', function: { name } } : 'auto',
      }),
      calls,
    );
    const parsed = parseStructured(calls.args || result.text, schema);
    if (parsed.ok) return { ...result, value: parsed.value };
    throw new AgentError('MODEL_UNPARSEABLE', `the model's call of ${name} failed its schema: ${parsed.error}`, {
      raw: calls.args || result.text,
    });
  }

  #target(agent: AgentName | undefined): Target {
    const endpoint = agent ? this.config.agentEndpoints?.[agent] : undefined;
    const apiKey = endpoint?.apiKey ?? this.config.apiKey;
    const baseURL = endpoint?.baseURL ?? this.config.baseURL;
    const key = `${baseURL ?? ''}|${apiKey}`;
    let client = this.#clients.get(key);
    if (!client) {
      client = new OpenAI({
        apiKey,
        baseURL,
        timeout: this.config.timeoutMs ?? 60_000,
        maxRetries: this.config.maxRetries ?? 2,
      });
      this.#clients.set(key, client);
    }
    const model = (agent && this.config.agentModels?.[agent]) || this.config.model;
    return { client, baseURL: client.baseURL, model };
  }

  /** One call, starting from what the endpoint and model are known to accept (see {@link OpenAiModel.#complete}). */
  #call(
    request: ChatRequest,
    messages: ChatMessage[],
    extrasFor: (caps: ModelCapabilities) => Extras,
    tool?: { args: string },
  ): Promise<ChatResult> {
    const target = this.#target(request.agent);
    const caps = this.registry.get(target.baseURL, target.model, this.#initial);
    return this.#complete({ target, request, messages, extrasFor, tool }, caps);
  }

  /**
   * One call to the endpoint, metered: reserved before (refused with `BUDGET_EXHAUSTED`, no call made),
   * settled after with the endpoint's usage — or, when the call failed or the endpoint reported none, the
   * prompt's estimate and the tokens of what was streamed. A feature the endpoint refused costs nothing: the
   * refusal is recorded for the endpoint and model and the call made again with the weaker form.
   */
  async #complete(call: CallPlan, caps: ModelCapabilities): Promise<ChatResult> {
    const { target, request, messages, tool } = call;
    const extras = call.extrasFor(caps);
    const format = extras.response_format;
    const schema = format?.type === 'json_schema' ? JSON.stringify(format.json_schema.schema ?? {}) : '';
    const meter = request.meter;
    const estimate = meter ? await estimatePromptTokens(messages, schema) : 0;
    const metered = meter ? await meter.open(estimate) : null;
    const streamed = { text: '' };
    let reported: ModelUsage | null = null;
    let weaker: ModelCapabilities | null = null;
    try {
      const cap = metered?.maxTokens == null ? {} : { [this.config.maxTokensField ?? 'max_tokens']: metered.maxTokens };
      const body: Body = { model: target.model, messages, ...extras, ...cap };
      const result = await this.#send(target, caps, request, { body, messages }, streamed, tool);
      reported = result.usage;
      return result;
    } catch (error) {
      const feature = refusedFeature(error, sentFeatures(extras, Boolean(request.onToken), caps));
      weaker = feature && this.registry.refused(target.baseURL, target.model, caps, feature);
      if (!weaker) throw error;
    } finally {
      if (metered && weaker) await metered.close({ promptTokens: 0, completionTokens: 0 });
      else if (metered) {
        const answer = reported?.completionTokens || (await estimateTextTokens(streamed.text));
        const usage = { promptTokens: reported?.promptTokens || estimate, completionTokens: answer };
        await metered.close(reported?.estimated ? { ...usage, estimated: true } : usage);
      }
    }
    return this.#complete(call, weaker);
  }

  async #send(
    target: Target,
    caps: ModelCapabilities,
    request: ChatRequest,
    { body, messages }: { body: Body; messages: ChatMessage[] },
    streamed: { text: string },
    tool: { args: string } | undefined,
  ): Promise<ChatResult> {
    try {
      let usage: ModelUsage | null;
      let model = target.model;
      if (request.onToken) {
        const usageOption = caps.streamUsage === 'reported' ? { stream_options: { include_usage: true } } : {};
        const streaming = { ...body, stream: true as const, ...usageOption };
        usage = await streamChat(target.client, streaming, request, this.config.timeoutMs ?? 60_000, streamed);
      } else {
        const completion = await target.client.chat.completions.create(body, { signal: request.signal });
        const message = completion.choices[0]?.message;
        streamed.text = message?.content ?? '';
        const called = message?.tool_calls?.find((c) => c.type === 'function');
        if (tool && called?.type === 'function') tool.args = called.function.arguments;
        model = completion.model || model;
        usage = completion.usage
          ? { promptTokens: completion.usage.prompt_tokens, completionTokens: completion.usage.completion_tokens }
          : null;
      }
      // An endpoint that reports no usage (a stream without stream_options): counted here, marked estimated.
      usage ??= {
        promptTokens: await estimatePromptTokens(messages),
        completionTokens: await estimateTextTokens(streamed.text + (tool?.args ?? '')),
        estimated: true,
      };
      return { text: streamed.text, model, usage };
    } catch (error) {
      throw toModelError(error, request.signal);
    }
  }
}
