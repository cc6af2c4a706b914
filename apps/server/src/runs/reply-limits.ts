import { planProposalDependencies } from '@thinkingmap/agent-core';
import { QuestionKind } from '@thinkingmap/db';
import { CycleError, ValidationError } from '../commands/domain-errors.ts';
import { LIMITS } from '../commands/input.ts';

interface EditedSubQuestion {
  key: string;
  question: string;
  goal: string;
  dependsOn: string[];
}

/**
 * Refuses edited sub-questions whose dependencies could not all be created: a key no sub-question has
 * (ValidationError), or edges that close a cycle (CycleError naming the path by keys and questions) — the
 * same cycle detection `addDependency` uses, through `planProposalDependencies`.
 */
function checkEditedDependencies(subQuestions: EditedSubQuestion[]): void {
  const [problem] = planProposalDependencies(subQuestions).dropped;
  if (!problem) return;
  const index = subQuestions.findIndex((sub) => sub.key === problem.from);
  if (problem.reason === 'unknown') {
    const at = subQuestions[index]!.dependsOn.indexOf(problem.to);
    throw new ValidationError(
      `reply.subQuestions.${index}.dependsOn.${at}`,
      `"${problem.to}" is not the key of a sub-question`,
    );
  }
  const path = problem.path ?? [problem.from, problem.to];
  const questions = new Map(subQuestions.map((sub) => [sub.key, sub.question]));
  throw new CycleError(
    path,
    path.map((key) => questions.get(key) ?? key),
  );
}

function checkLength(field: string, value: string, max: number): void {
  if (value.trim().length === 0) throw new ValidationError(field, 'must not be empty');
  if (value.length > max) throw new ValidationError(field, `must be at most ${max} characters`);
}

/**
 * Checks what a person wrote in a reply against the limits the map's own commands apply, before the reply is
 * accepted: an approved sub-question becomes a node (its dependencies edges), an accepted conclusion a node's
 * conclusion. A reply the run could not carry out is refused here, with the question still waiting, instead of
 * failing the run or dropping what the person wrote.
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
    checkEditedDependencies(r.subQuestions);
  }
  for (const field of ['conclusion', 'answer', 'feedback', 'correction'] as const) {
    const value = r[field];
    if (typeof value === 'string') checkLength(`reply.${field}`, value, LIMITS.content);
  }
}
