import { interrupt } from '@langchain/langgraph';
import type { z } from 'zod';
import type { AgentQuestion } from '../../ports/event-port.ts';

/**
 * The reply a server sends when a clarifying question expired: the agent goes on with what it has. The person's
 * gates (confirm, review) never receive it: their schemas refuse it, and an expired gate just waits.
 */
export const EXPIRED_REPLY = { expired: true } as const;

/**
 * Pauses the run with a question for the person and returns their reply, parsed with `schema` (also
 * published to clients as the reply's JSON schema). Call it as the only side effect of its step: LangGraph
 * re-runs the step from its start on resume. Never wrap it in a try/catch that swallows errors.
 */
export function askPerson<R>(question: Omit<AgentQuestion, 'requestId'>, schema: z.ZodType<R>): R {
  return interrupt<Omit<AgentQuestion, 'requestId'>, R>(question, { responseSchema: schema });
}
