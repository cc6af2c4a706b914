import { z } from 'zod';
import { AGENT_NAMES, type AgentName } from '../ports/model-port.ts';
import { type ModelCapabilities, STRUCTURED_OUTPUTS } from './endpoint-capabilities.ts';

/** Where one agent's calls go when it has its own endpoint (`OPENAI_BASE_URL_<AGENT>`, `OPENAI_API_KEY_<AGENT>`). */
export interface AgentEndpoint {
  baseURL?: string;
  apiKey?: string;
}

/** Configuration of the OpenAI-compatible model. */
export interface OpenAiModelConfig {
  apiKey: string;
  /** Base URL of any OpenAI-compatible endpoint; the SDK's default when absent. */
  baseURL?: string;
  /** The default model name. */
  model: string;
  /** Model names per agent, overriding `model` (from `MODEL_CONCLUDE=…` and so on). */
  agentModels?: Partial<Record<AgentName, string>>;
  /** Endpoints per agent, overriding `baseURL` and `apiKey` (a fast local front agent, a hosted planner). */
  agentEndpoints?: Partial<Record<AgentName, AgentEndpoint>>;
  /** Milliseconds one attempt may take before it times out (default 60 000). */
  timeoutMs?: number;
  /** Retries after a 429, 5xx, connection error or timeout, with exponential backoff (default 2). */
  maxRetries?: number;
  /**
   * Where detection starts, per feature (overrides): the strongest is tried first and whatever an endpoint
   * refuses falls back by itself, so these are only needed to skip the first refused call.
   */
  capabilities?: Partial<ModelCapabilities>;
  /**
   * The request field that caps an answer when a map has a token budget: `max_tokens` (default, what most
   * OpenAI-compatible servers read) or `max_completion_tokens` (what OpenAI's reasoning models require).
   */
  maxTokensField?: MaxTokensField;
}

/** The request fields an answer's cap can be sent in. */
export const MAX_TOKENS_FIELDS = ['max_tokens', 'max_completion_tokens'] as const;
/** One of {@link MAX_TOKENS_FIELDS}. */
export type MaxTokensField = (typeof MAX_TOKENS_FIELDS)[number];

const EnvSchema = z.object({
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: z.url().optional(),
  MODEL: z.string().default('gpt-4o-mini'),
  OPENAI_TIMEOUT_MS: z.coerce.number().int().positive().optional(),
  OPENAI_MAX_RETRIES: z.coerce.number().int().min(0).optional(),
  OPENAI_RESPONSE_FORMAT: z.enum(STRUCTURED_OUTPUTS).optional(),
  OPENAI_STREAM_USAGE: z.enum(['reported', 'estimated']).optional(),
  OPENAI_TOOL_CHOICE: z.enum(['named', 'auto']).optional(),
  OPENAI_MAX_TOKENS_FIELD: z.enum(MAX_TOKENS_FIELDS).optional(),
});

/**
 * Reads the model configuration from environment variables: `OPENAI_API_KEY`, `OPENAI_BASE_URL`, `MODEL`,
 * per agent `MODEL_<AGENT>` (e.g. `MODEL_CONCLUDE`) with `OPENAI_BASE_URL_<AGENT>` and `OPENAI_API_KEY_<AGENT>`,
 * `OPENAI_TIMEOUT_MS`, `OPENAI_MAX_RETRIES`, `OPENAI_MAX_TOKENS_FIELD`, and the detection overrides
 * `OPENAI_RESPONSE_FORMAT` (json_schema, json_object, prompt), `OPENAI_STREAM_USAGE` (reported, estimated),
 * `OPENAI_TOOL_CHOICE` (named, auto).
 * Returns null when neither a key nor a base URL is set: the product then runs on the offline model.
 */
export function modelConfigFromEnv(env: Record<string, string | undefined>): OpenAiModelConfig | null {
  const parsed = EnvSchema.parse(env);
  if (!parsed.OPENAI_API_KEY && !parsed.OPENAI_BASE_URL) return null;
  const agentModels: Partial<Record<AgentName, string>> = {};
  const agentEndpoints: Partial<Record<AgentName, AgentEndpoint>> = {};
  for (const agent of AGENT_NAMES) {
    const suffix = agent.toUpperCase();
    const name = env[`MODEL_${suffix}`];
    if (name) agentModels[agent] = name;
    const baseURL = z
      .url({ error: `OPENAI_BASE_URL_${suffix} is not a URL` })
      .optional()
      .parse(env[`OPENAI_BASE_URL_${suffix}`] || undefined);
    const apiKey = env[`OPENAI_API_KEY_${suffix}`] || undefined;
    if (baseURL || apiKey) agentEndpoints[agent] = { baseURL, apiKey };
  }
  const capabilities: Partial<ModelCapabilities> = {};
  if (parsed.OPENAI_RESPONSE_FORMAT) capabilities.structuredOutput = parsed.OPENAI_RESPONSE_FORMAT;
  if (parsed.OPENAI_STREAM_USAGE) capabilities.streamUsage = parsed.OPENAI_STREAM_USAGE;
  if (parsed.OPENAI_TOOL_CHOICE) capabilities.toolChoice = parsed.OPENAI_TOOL_CHOICE;
  return {
    apiKey: parsed.OPENAI_API_KEY ?? 'not-needed',
    baseURL: parsed.OPENAI_BASE_URL,
    model: parsed.MODEL,
    agentModels,
    agentEndpoints,
    timeoutMs: parsed.OPENAI_TIMEOUT_MS,
    maxRetries: parsed.OPENAI_MAX_RETRIES,
    capabilities,
    maxTokensField: parsed.OPENAI_MAX_TOKENS_FIELD,
  };
}
