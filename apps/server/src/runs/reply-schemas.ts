import {
  ClarifyReplySchema,
  ConfirmUnderstandingReplySchema,
  ReviewConclusionReplySchema,
  ReviewDecompositionReplySchema,
  ReviewDivergentTasksReplySchema,
} from '@thinkingmap/agent-core';
import { QuestionKind } from '@thinkingmap/db';
import type { z } from 'zod';
import { ValidationError } from '../commands/domain-errors.ts';

const SCHEMAS: Record<string, z.ZodType> = {
  [QuestionKind.CONFIRM_UNDERSTANDING]: ConfirmUnderstandingReplySchema,
  [QuestionKind.REVIEW_DECOMPOSITION]: ReviewDecompositionReplySchema,
  [QuestionKind.REVIEW_CONCLUSION]: ReviewConclusionReplySchema,
  [QuestionKind.CLARIFY]: ClarifyReplySchema,
  [QuestionKind.REVIEW_DIVERGENT_TASKS]: ReviewDivergentTasksReplySchema,
};

/** Shortcuts a person (or a plain GraphQL client) can send instead of the exact reply shape. */
export interface ReplyShortcut {
  /** Confirm / approve / accept what the agent proposed. */
  accept?: boolean | null;
  /** Free text: the answer to a question, a correction, or feedback for a revision. */
  text?: string | null;
  /** Skip a clarifying question: the run goes on with what it has (only clarifying questions can be skipped). */
  skip?: boolean | null;
  /** The exact reply object for the question's kind. */
  reply?: unknown;
}

/** Builds the reply for a question of `kind` from the shortcut, and checks it against the agent's schema. */
export function buildReply(kind: string, input: ReplyShortcut): unknown {
  let reply = input.reply;
  if (input.skip) {
    if (kind !== QuestionKind.CLARIFY)
      throw new ValidationError('skip', `only a clarifying question can be skipped, not a ${kind} question`);
    reply = { skipped: true };
  } else if (reply === undefined || reply === null) {
    const text = input.text?.trim();
    if (input.accept) {
      reply = {
        [QuestionKind.CONFIRM_UNDERSTANDING]: { confirm: true },
        [QuestionKind.REVIEW_DECOMPOSITION]: { action: 'approve' },
        [QuestionKind.REVIEW_CONCLUSION]: { action: 'accept' },
        [QuestionKind.REVIEW_DIVERGENT_TASKS]: { action: 'approve' },
      }[kind];
      if (reply === undefined)
        throw new ValidationError('accept', `a ${kind} question needs an answer, not an acceptance`);
    } else if (text) {
      reply = {
        [QuestionKind.CONFIRM_UNDERSTANDING]: { correction: text },
        [QuestionKind.REVIEW_DECOMPOSITION]: { action: 'reject', feedback: text },
        [QuestionKind.REVIEW_CONCLUSION]: { action: 'revise', feedback: text },
        [QuestionKind.CLARIFY]: { answer: text },
      }[kind] ?? { answer: text };
    } else {
      throw new ValidationError('reply', 'give `accept: true`, a `text`, `skip: true`, or a `reply` object');
    }
  }
  const schema = SCHEMAS[kind];
  if (!schema) return reply;
  const parsed = schema.safeParse(reply);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ValidationError(
      `reply${issue?.path.length ? `.${issue.path.join('.')}` : ''}`,
      issue?.message ?? 'does not match the question',
    );
  }
  return parsed.data;
}
