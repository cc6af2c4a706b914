import { CANCEL_RUN, FORK_RUN, PROCESS_NODE, REPLY_TO_AGENT, REVIEW_DECOMPOSITION } from '@thinkingmap/client';
import type { Client } from '@urql/core';
import type { ApiError } from '../api/api-error.ts';
import type { ApiResult } from '../api/request.ts';
import { runMutation } from '../api/request.ts';
import type { DecompositionStrategy, NodeIntent, SubQuestionInput } from '../api/results.ts';

/** Each command resolves with the API's refusal, or null when it was taken. */
type Outcome = Promise<ApiError | null>;

async function outcome(result: Promise<ApiResult<unknown>>): Outcome {
  const settled = await result;
  return settled.ok ? null : settled.error;
}

/** Starts the agents on a node; `intent` overrides the agent's own choice. */
export function processNode(client: Client, nodeId: string, intent: NodeIntent | null): Outcome {
  return outcome(runMutation(client, PROCESS_NODE, { nodeId, ...(intent ? { intent } : {}) }));
}

/**
 * Answers a question: text (an answer, a correction, feedback), plain acceptance, or the exact reply object of
 * the question's kind (an edited conclusion: `{ action: 'accept', conclusion }`).
 */
export function replyToAgent(
  client: Client,
  requestId: string,
  reply: { text: string } | { accept: true } | { skip: true } | { reply: Record<string, unknown> },
): Outcome {
  return outcome(runMutation(client, REPLY_TO_AGENT, { input: { requestId, ...reply } }));
}

/** Approves the (edited) sub-questions, or rejects the proposal with feedback and perhaps another strategy. */
export function reviewDecomposition(
  client: Client,
  requestId: string,
  review:
    | { accept: true; subQuestions: SubQuestionInput[] }
    | { accept: false; feedback: string; strategy?: DecompositionStrategy | null },
): Outcome {
  const input = review.accept
    ? { requestId, ...review }
    : {
        requestId,
        accept: false,
        feedback: review.feedback,
        ...(review.strategy ? { strategy: review.strategy } : {}),
      };
  return outcome(runMutation(client, REVIEW_DECOMPOSITION, { input }));
}

/** Cancels a running or waiting run. */
export function cancelRun(client: Client, runId: string): Outcome {
  return outcome(runMutation(client, CANCEL_RUN, { runId }));
}

/**
 * Re-runs a finished node run from one of its steps with another intent or strategy, feedback, or edited
 * sub-questions (from the review step): a new run on the same node, linked to the original. Resolves with the
 * new run's id, or the API's refusal.
 */
export async function forkRun(
  client: Client,
  input: {
    runId: string;
    step: string;
    /** Which visit of the step (its round); the last one when absent. */
    round?: number | null;
    intent?: NodeIntent | null;
    strategy?: DecompositionStrategy | null;
    feedback?: string | null;
    subQuestions?: SubQuestionInput[] | null;
  },
): Promise<ApiResult<{ id: string }>> {
  return runMutation(client, FORK_RUN, { input });
}
