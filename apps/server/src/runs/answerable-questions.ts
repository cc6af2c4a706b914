import { ANSWERABLE_RUN_STATUSES, GATE_QUESTION_KINDS, isGateQuestion } from '@thinkingmap/db';

/**
 * The questions a person can still answer (a Prisma `where` on AgentQuestion): those waiting, and the person's
 * gates whose time ran out while their run is paused (or still waits on another question). An expired gate
 * never passes by itself; it stays in every list of pending questions, marked EXPIRED, until the person
 * answers it or redoes the step.
 */
export const ANSWERABLE_QUESTION = {
  OR: [
    { status: 'PENDING' as const },
    {
      status: 'EXPIRED' as const,
      kind: { in: [...GATE_QUESTION_KINDS] },
      run: { status: { in: [...ANSWERABLE_RUN_STATUSES] } },
    },
  ],
};

/** Whether a question in `status` of `kind`, whose run is in `runStatus`, can still be answered. */
export function isAnswerable(question: { status: string; kind: string }, runStatus: string): boolean {
  if (question.status === 'PENDING') return true;
  return (
    question.status === 'EXPIRED' &&
    isGateQuestion(question.kind) &&
    ANSWERABLE_RUN_STATUSES.some((known) => known === runStatus)
  );
}
