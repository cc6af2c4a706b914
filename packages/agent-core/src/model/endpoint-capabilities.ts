import OpenAI from 'openai';

/**
 * How a structured answer is asked for, strongest first: a JSON schema as `response_format`, any JSON object
 * as `response_format` (the schema in the prompt), or no `response_format` at all (the schema in the prompt).
 * Every answer is validated by zod and repaired once whichever is used.
 */
export const STRUCTURED_OUTPUTS = ['json_schema', 'json_object', 'prompt'] as const;
/** One of {@link STRUCTURED_OUTPUTS}. */
export type StructuredOutput = (typeof STRUCTURED_OUTPUTS)[number];

/** What an endpoint and model were found to accept (or were configured to use). */
export interface ModelCapabilities {
  structuredOutput: StructuredOutput;
  /** `reported`: a stream ends with the endpoint's usage (`stream_options`); `estimated`: counted locally. */
  streamUsage: 'reported' | 'estimated';
  /** `named`: `tool_choice` may name the function; `auto`: only `auto` is accepted, the answer is validated. */
  toolChoice: 'named' | 'auto';
}

/** A request feature an endpoint may refuse. */
export type RefusedFeature = 'response_format' | 'stream_options' | 'tool_choice';

/** The strongest of everything: what is tried until an endpoint refuses it. */
export const FULL_CAPABILITIES: ModelCapabilities = {
  structuredOutput: 'json_schema',
  streamUsage: 'reported',
  toolChoice: 'named',
};

const FEATURE_WORDS: [RefusedFeature, RegExp][] = [
  // Servers that turn a schema into a grammar (vLLM, llama.cpp) name the schema or the grammar when they fail it.
  ['response_format', /response_format|json_schema|json_object|structured output|schema|grammar|guided/i],
  ['stream_options', /stream_options|include_usage/i],
  ['tool_choice', /tool_choice/i],
];

/**
 * The request feature an endpoint refused, when `error` is a 4xx (other than auth, not found and rate limit)
 * whose message names one of the features `sent`; null otherwise (a real failure).
 */
export function refusedFeature(thrown: unknown, sent: readonly RefusedFeature[]): RefusedFeature | null {
  const error = thrown instanceof Error && thrown.cause instanceof OpenAI.APIError ? thrown.cause : thrown;
  if (!(error instanceof OpenAI.APIError) || error.status === undefined) return null;
  if (error.status < 400 || error.status >= 500 || [401, 403, 404, 429].includes(error.status)) return null;
  const text = `${error.message} ${JSON.stringify(error.error ?? '')}`;
  for (const [feature, words] of FEATURE_WORDS) if (sent.includes(feature) && words.test(text)) return feature;
  return null;
}

/** The capabilities one step weaker in `feature` than `current`; null when nothing weaker is left. */
export function fallBack(current: ModelCapabilities, feature: RefusedFeature): ModelCapabilities | null {
  if (feature === 'response_format') {
    const next = STRUCTURED_OUTPUTS[STRUCTURED_OUTPUTS.indexOf(current.structuredOutput) + 1];
    return next ? { ...current, structuredOutput: next } : null;
  }
  if (feature === 'stream_options')
    return current.streamUsage === 'reported' ? { ...current, streamUsage: 'estimated' } : null;
  return current.toolChoice === 'named' ? { ...current, toolChoice: 'auto' } : null;
}

/**
 * What each endpoint and model accepts, found by the refusals it answered, for the life of the process. The
 * first use of an endpoint starts from `initial` (the configured overrides, else everything); each fallback is
 * logged once.
 */
export class CapabilityRegistry {
  readonly #found = new Map<string, ModelCapabilities>();

  constructor(private readonly log: (line: string) => void = (line) => console.warn(`[thinkingmap] ${line}`)) {}

  /** What `model` at `baseURL` is known to accept. */
  get(baseURL: string, model: string, initial: ModelCapabilities): ModelCapabilities {
    return this.#found.get(`${baseURL}|${model}`) ?? initial;
  }

  /**
   * Records that `model` at `baseURL` refused `feature` while using `current`; returns what to retry with, or
   * null when nothing weaker is left. Concurrent calls that saw the same refusal fall back once.
   */
  refused(
    baseURL: string,
    model: string,
    current: ModelCapabilities,
    feature: RefusedFeature,
  ): ModelCapabilities | null {
    const key = `${baseURL}|${model}`;
    const known = this.#found.get(key) ?? current;
    const weaker = fallBack(current, feature) ?? current;
    const merged = weakest(known, weaker);
    if (same(merged, current)) return null;
    if (!same(merged, known))
      this.log(
        `model ${model} at ${baseURL} refused ${feature}; using ${describeFallback(feature, merged)} from now on`,
      );
    this.#found.set(key, merged);
    return merged;
  }
}

const same = (a: ModelCapabilities, b: ModelCapabilities) =>
  a.structuredOutput === b.structuredOutput && a.streamUsage === b.streamUsage && a.toolChoice === b.toolChoice;

/** Each feature at the weaker of the two. */
function weakest(a: ModelCapabilities, b: ModelCapabilities): ModelCapabilities {
  const rank = (c: ModelCapabilities) => STRUCTURED_OUTPUTS.indexOf(c.structuredOutput);
  return {
    structuredOutput: rank(a) > rank(b) ? a.structuredOutput : b.structuredOutput,
    streamUsage: a.streamUsage === 'estimated' ? 'estimated' : b.streamUsage,
    toolChoice: a.toolChoice === 'auto' ? 'auto' : b.toolChoice,
  };
}

function describeFallback(feature: RefusedFeature, capabilities: ModelCapabilities): string {
  if (feature === 'response_format') return `structured output "${capabilities.structuredOutput}"`;
  if (feature === 'stream_options') return 'streams without usage (tokens counted locally, marked estimated)';
  return 'tool_choice "auto"';
}

/** The registry the process shares: what one model's refusals taught holds for every later call. */
export const processCapabilities = new CapabilityRegistry();
