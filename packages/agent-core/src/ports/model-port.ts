import type { z } from 'zod';
import type { Language } from '../domain/enums.ts';
import type { ReadableFields } from '../model/readable-stream.ts';

/** The agents that call a model; used for per-agent model overrides and by the offline model. */
export type AgentName = 'understand' | 'intent' | 'strategy' | 'decompose' | 'conclude' | 'clarify' | 'explore';

/** One chat message sent to a model. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** Tokens spent by one or more model calls. */
export interface ModelUsage {
  promptTokens: number;
  completionTokens: number;
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
}

/** A chat call. */
export interface ChatRequest {
  agent: AgentName;
  messages: ChatMessage[];
  /** Called with each streamed piece of text, in order. */
  onToken?: (text: string) => void;
  signal?: AbortSignal;
  offlineHint?: OfflineHint;
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
}
