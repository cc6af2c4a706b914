import { QuestionKind } from '@thinkingmap/db';
import { LIMITS } from '../commands/input.ts';
import { ValidationError } from '../errors/domain-errors.ts';

interface EditedSubQuestion {
  key: string;
  question: string;
  goal: string;
}

function checkLength(field: string, value: string, max: number): void {
  if (value.trim().length === 0) throw new ValidationError(field, 'must not be empty');
  if (value.length > max) throw new ValidationError(field, `must be at most ${max} characters`);
}

/**
 * Checks what a person wrote in a reply against the limits the map's own commands apply, before the reply is
 * accepted: an approved sub-question becomes a node, an accepted conclusion a node's conclusion. A reply
 * the run could not carry out is refused here, with the question still waiting, instead of failing the run.
 */
export function checkReplyLimits(kind: string, reply: unknown): void {
  const r = reply as {
    subQuestions?: EditedSubQuestion[];
    conclusion?: string;
    answer?: string;
    feedback?: string;
    correction?: string;
  };
  if (kind === QuestionKind.REVIEW_DECOMPOSITION && r.subQuestions) {
    const keys = new Set<string>();
    r.subQuestions.forEach((sub, i) => {
      if (keys.has(sub.key)) throw new ValidationError(`reply.subQuestions.${i}.key`, `"${sub.key}" is used twice`);
      keys.add(sub.key);
      checkLength(`reply.subQuestions.${i}.question`, sub.question, LIMITS.question);
      if (sub.goal.length > LIMITS.goal)
        throw new ValidationError(`reply.subQuestions.${i}.goal`, `must be at most ${LIMITS.goal} characters`);
    });
  }
  for (const field of ['conclusion', 'answer', 'feedback', 'correction'] as const) {
    const value = r[field];
    if (typeof value === 'string') checkLength(`reply.${field}`, value, LIMITS.content);
  }
}
