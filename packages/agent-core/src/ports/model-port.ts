import type { z } from 'zod';
import type { Language } from '../domain/enums.ts';
import type { ModelCapabilities } from '../model/endpoint-capabilities.ts';
import type { ReadableFields } from '../model/readable-stream.ts';

/** The agents that call a model; used for per-agent model overrides (`MODEL_<AGENT>`) and by the offline model. */
export const AGENT_NAMES = [
  'understand',
  'intent',
  'strategy',
  'decompose',
  'conclude',
  'clarify',
  'explore',
  /** Divergent exploration: its summaries, task plans and final output. */
  'diverge',
  /** Divergent exploration: the skill tasks (analysis, documents, code). */
  'skill',
  /** Divergent exploration: the completion evaluator. */
  'evaluate',
  'front',
  'planner',
  'summarize',
  /** The critic: reviews a map or a subtree for gaps, overlaps, contradictions and unsupported claims. */
  'critic',
] as const;
/** One of {@link AGENT_NAMES}. */
export type AgentName = (typeof AGENT_NAMES)[number];

/** One chat message sent to a model. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Tokens spent by one or more model calls. */
export interface ModelUsage {
  promptTokens: number;
  completionTokens: number;
  /** True when the endpoint reported no usage and these were counted locally with a tokenizer. */
  estimated?: boolean;
}

/**
 * What the offline model needs to answer without a model: the facts the prompt was built from. Real models
 * ignore it. Keeping it next to the prompt makes every flow work offline with answers that fit the map.
 */
export interface OfflineHint {
  language: Language;
  question: string;
  goal?: string;
  /** Depth of the node in the tree (root = 0). */
  depth?: number;
  /** How many children the node has, and how many of them are concluded. */
  childCount?: number;
  concludedChildCount?: number;
  /** The person's latest reply or feedback, when the call answers one. */
  reply?: string;
  /**
   * Problem understanding: what to restate — the title, problem, goal and constraints the person gave, or
   * the previous restatement when `reply` corrects it. Empty fields are filled in, given ones kept.
   */
  understanding?: { title: string; problem: string; goal: string; constraints: string[] };
}

/** One metered call to a model endpoint, opened by {@link CallMeter.open}. */
export interface MeteredCall {
  /** The most tokens the answer may take (sent as `max_tokens`); null for no cap. */
  readonly maxTokens: number | null;
  /** After the call, with what it spent: the endpoint's usage, or estimates when it failed or said nothing. */
  close(usage: ModelUsage): Promise<void>;
}

/**
 * What a model implementation asks around each call it makes to its endpoint (each attempt of a structured
 * answer, the repair included): `open` before it, with the prompt's estimate from a real tokenizer, which
 * caps the answer or refuses the call (`BUDGET_EXHAUSTED`: the call is not made); `close` after, also when the
 * call failed, so what failed calls spent counts too. `MeteredModel` sets it; a model that calls no endpoint
 * (the offline model) ignores it.
 */
export interface CallMeter {
  open(promptTokens: number): Promise<MeteredCall>;
}

/** A chat call. */
export interface ChatRequest {
  agent: AgentName;
  messages: ChatMessage[];
  /** Called with each streamed piece of text, in order. */
  onToken?: (text: string) => void;
  signal?: AbortSignal;
  offlineHint?: OfflineHint;
  /** Meters each call to the endpoint against the map's token budget (see {@link CallMeter}). */
  meter?: CallMeter;
}

/** A chat answer. */
export interface ChatResult {
  text: string;
  usage: ModelUsage;
  /** The model that answered (`offline` for the offline model). */
  model: string;
}

/** A call whose answer must be JSON matching `schema`. */
export interface StructuredRequest<T> extends ChatRequest {
  /** The zod schema the answer is parsed with; also sent to the endpoint as JSON schema. */
  schema: z.ZodType<T>;
  /** A short identifier of the schema (`intent_decision`), sent as the JSON schema's name. */
  schemaName: string;
  /**
   * The fields a person reads while the answer is written. When set, `onToken` receives their text as it
   * grows (a repair attempt starts after a blank line), never the raw JSON; when not set, nothing streams.
   */
  readable?: ReadableFields;
}

/** A parsed structured answer. */
export interface StructuredResult<T> extends ChatResult {
  value: T;
  /** True when the first answer failed its schema and the repair call fixed it. */
  repaired: boolean;
}

/**
 * How agents talk to a language model. Failures are `AgentError`s with codes `MODEL_TIMEOUT`,
 * `MODEL_RATE_LIMITED`, `MODEL_UNAVAILABLE`, `MODEL_UNPARSEABLE` (raw text kept) and `BUDGET_EXHAUSTED`.
 */
export interface ModelPort {
  /** True for the offline model; the API and the UI show it. */
  readonly offline: boolean;
  /** A label to show ("gpt-4o-mini via https://…", "offline model"). */
  readonly label: string;
  /** Free-text answer, streamed through `onToken`. */
  chat(request: ChatRequest): Promise<ChatResult>;
  /** A JSON answer validated against `request.schema`, repaired once. */
  structured<T>(request: StructuredRequest<T>): Promise<StructuredResult<T>>;
  /** What the endpoint was found to accept so far (absent for models without an endpoint). */
  capabilities?(): ModelCapabilities | undefined;
}
