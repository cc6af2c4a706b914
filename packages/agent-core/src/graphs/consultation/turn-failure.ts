import { type AgentErrorCode, isAgentError } from '../../errors/agent-error.ts';

/** Why a turn failed, as the person and the log see it: the error's code, its message, and the raw answer if any. */
export interface TurnFailure {
  code: AgentErrorCode | 'INTERNAL';
  reason: string;
  raw?: string;
}

/** The {@link TurnFailure} of an error a turn met (an error that is not an `AgentError` is `INTERNAL`). */
export function turnFailureOf(error: unknown): TurnFailure {
  if (isAgentError(error)) return { code: error.code, reason: error.message, ...(error.raw ? { raw: error.raw } : {}) };
  return { code: 'INTERNAL', reason: error instanceof Error ? error.message : String(error) };
}
