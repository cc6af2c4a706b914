import { z } from 'zod';
import { AGENT_NAMES, type AgentName } from '../ports/model-port.ts';

/** How a structured answer is requested: a JSON schema, or any JSON object (endpoints without schemas). */
export const RESPONSE_FORMATS = ['json_schema', 'json_object'] as const;
/** One of {@link RESPONSE_FORMATS}. */
export type ResponseFormat = (typeof RESPONSE_FORMATS)[number];

/** Configuration of the OpenAI-compatible model. */
export interface OpenAiModelConfig {
  apiKey: string;
  /** Base URL of any OpenAI-compatible endpoint; the SDK's default when absent. */
  baseURL?: string;
  /** The default model name. */
  model: string;
  /** Model names per agent, overriding `model` (from `MODEL_CONCLUDE=…` and so on). */
  agentModels?: Partial<Record<AgentName, string>>;
  /** Milliseconds one attempt may take before it times out (default 60 000). */
  timeoutMs?: number;
  /** Retries after a 429, 5xx, connection error or timeout, with exponential backoff (default 2). */
  maxRetries?: number;
  /** `json_schema` (default) sends the zod schema as JSON schema; `json_object` for endpoints without it. */
  responseFormat?: ResponseFormat;
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
  OPENAI_RESPONSE_FORMAT: z.enum(RESPONSE_FORMATS).optional(),
  OPENAI_MAX_TOKENS_FIELD: z.enum(MAX_TOKENS_FIELDS).optional(),
});

/**
 * Reads the model configuration from environment variables: `OPENAI_API_KEY`, `OPENAI_BASE_URL`, `MODEL`,
 * `MODEL_<AGENT>` (e.g. `MODEL_CONCLUDE`), `OPENAI_TIMEOUT_MS`, `OPENAI_MAX_RETRIES`, `OPENAI_RESPONSE_FORMAT`,
 * `OPENAI_MAX_TOKENS_FIELD`.
 * Returns null when neither a key nor a base URL is set: the product then runs on the offline model.
 */
export function modelConfigFromEnv(env: Record<string, string | undefined>): OpenAiModelConfig | null {
  const parsed = EnvSchema.parse(env);
  if (!parsed.OPENAI_API_KEY && !parsed.OPENAI_BASE_URL) return null;
  const agentModels: Partial<Record<AgentName, string>> = {};
  for (const agent of AGENT_NAMES) {
    const name = env[`MODEL_${agent.toUpperCase()}`];
    if (name) agentModels[agent] = name;
  }
  return {
    apiKey: parsed.OPENAI_API_KEY ?? 'not-needed',
    baseURL: parsed.OPENAI_BASE_URL,
    model: parsed.MODEL,
    agentModels,
    timeoutMs: parsed.OPENAI_TIMEOUT_MS,
    maxRetries: parsed.OPENAI_MAX_RETRIES,
    responseFormat: parsed.OPENAI_RESPONSE_FORMAT,
    maxTokensField: parsed.OPENAI_MAX_TOKENS_FIELD,
  };
}
