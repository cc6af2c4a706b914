import OpenAI from 'openai';
import { AgentError } from '../errors/agent-error.ts';

/**
 * Turns whatever the `openai` SDK threw (after its own retries with backoff) into an {@link AgentError}
 * with a stable code. Aborts by the caller become `CANCELLED`.
 */
export function toModelError(error: unknown, signal?: AbortSignal): AgentError {
  if (error instanceof AgentError) return error;
  if (signal?.aborted || error instanceof OpenAI.APIUserAbortError)
    return new AgentError('CANCELLED', 'model call cancelled', { cause: error });
  if (error instanceof OpenAI.APIConnectionTimeoutError)
    return new AgentError('MODEL_TIMEOUT', 'the model did not answer in time', { cause: error });
  if (error instanceof OpenAI.RateLimitError)
    return new AgentError('MODEL_RATE_LIMITED', 'the model endpoint kept refusing with 429 (rate limited)', {
      cause: error,
    });
  if (error instanceof OpenAI.APIError) {
    const status = error.status === undefined ? 'no status' : `HTTP ${error.status}`;
    return new AgentError('MODEL_UNAVAILABLE', `the model endpoint failed (${status}): ${error.message}`, {
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new AgentError('MODEL_UNAVAILABLE', `the model endpoint answered something unusable: ${message}`, {
    cause: error,
  });
}
