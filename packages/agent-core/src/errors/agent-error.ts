/**
 * Every way an agent-core operation fails, as a stable code the server maps to its typed API errors.
 * - `MODEL_TIMEOUT`: the model did not answer within the configured time, retries included.
 * - `MODEL_RATE_LIMITED`: the endpoint kept answering 429 after every retry.
 * - `MODEL_UNAVAILABLE`: network errors or 5xx after every retry, or a 4xx that retrying cannot fix.
 * - `MODEL_UNPARSEABLE`: structured output failed its schema twice (the repair included); `raw` keeps the text.
 * - `BUDGET_EXHAUSTED`: the map's token budget is spent; no model call was made.
 * - `KNOWLEDGE_UNAVAILABLE`: the knowledge source could not be reached.
 * - `NODE_NOT_FOUND`, `NODE_BUSY`, `CYCLE`, `INVALID_INPUT`: store-side refusals, raised by store ports.
 * - `QUESTION_LIMIT`: a run asked the person more questions than its cap allows.
 * - `CANCELLED`: the run was cancelled through its abort signal.
 * - `CONSULTATION_BUSY`: a consultation whose strategy is REJECT refused a message while a turn runs.
 * - `RELEASED`: the process driving the run gave it up (it could not keep the run's lease); as an abort
 *   reason it stops the drive without ending the run, which resumes from its last checkpoint elsewhere.
 */
export type AgentErrorCode =
  | 'MODEL_TIMEOUT'
  | 'MODEL_RATE_LIMITED'
  | 'MODEL_UNAVAILABLE'
  | 'MODEL_UNPARSEABLE'
  | 'BUDGET_EXHAUSTED'
  | 'KNOWLEDGE_UNAVAILABLE'
  | 'NODE_NOT_FOUND'
  | 'NODE_BUSY'
  | 'CYCLE'
  | 'INVALID_INPUT'
  | 'QUESTION_LIMIT'
  | 'CANCELLED'
  | 'CONSULTATION_BUSY'
  | 'RELEASED';

/** Options of an {@link AgentError}. */
export interface AgentErrorOptions {
  /** The model's raw text when its output could not be used (kept so the person can see it). */
  raw?: string;
  /** The error that caused this one. */
  cause?: unknown;
}

/** An agent-core failure with a stable {@link AgentErrorCode}. Errors are values: check `code`, not the message. */
export class AgentError extends Error {
  override readonly name = 'AgentError';
  /** The stable code. */
  readonly code: AgentErrorCode;
  /** The model's raw text, for `MODEL_UNPARSEABLE`. */
  readonly raw: string | undefined;

  constructor(code: AgentErrorCode, message: string, options: AgentErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.raw = options.raw;
  }
}

/** Whether `error` is an {@link AgentError}, optionally with a given code. */
export function isAgentError(error: unknown, code?: AgentErrorCode): error is AgentError {
  return error instanceof AgentError && (code === undefined || error.code === code);
}
