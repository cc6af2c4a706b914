import { CANCEL_RUN, PROCESS_NODE, REPLY_TO_AGENT, REVIEW_DECOMPOSITION } from '@thinkingmap/client';
import type { Client } from '@urql/core';
import { runMutation } from '../api/request.ts';
import type { SubQuestionInput } from './decomposition-draft.svelte.ts';
import type { DecompositionStrategy } from './decomposition-strategy.ts';

/** Each command resolves with the API's refusal message, or null when it was taken. */
type Outcome = Promise<string | null>;

async function send(
  client: Client,
  document: Parameters<typeof runMutation>[1],
  variables: Record<string, unknown>,
): Outcome {
  const result = await runMutation(client, document, variables);
  return result.ok ? null : result.error.message;
}

/** Starts the agents on a node; `intent` overrides the agent's own choice. */
export function processNode(client: Client, nodeId: string, intent: string | null): Outcome {
  return send(client, PROCESS_NODE, { nodeId, ...(intent ? { intent } : {}) });
}

/** Answers a question: text (an answer, a correction, feedback) or plain acceptance. */
export function replyToAgent(client: Client, requestId: string, reply: { text: string } | { accept: true }): Outcome {
  return send(client, REPLY_TO_AGENT, { input: { requestId, ...reply } });
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
  return send(client, REVIEW_DECOMPOSITION, { input });
}

/** Cancels a running or waiting run. */
export function cancelRun(client: Client, runId: string): Outcome {
  return send(client, CANCEL_RUN, { runId });
}
