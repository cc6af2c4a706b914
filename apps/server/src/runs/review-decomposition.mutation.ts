import { CycleError } from '../commands/domain-errors.ts';
import { UndoRefusedError } from '../history/undo-refused-error.ts';
import { builder } from '../schema/builder.ts';
import { DecompositionStrategyEnum } from '../schema/enums.type.ts';
import { ACCESS_ERRORS } from '../schema/errors.type.ts';
import { replyToQuestion } from './reply-to-question.ts';
import { AgentRunRef } from './run.type.ts';

export const SubQuestionInput = builder.inputType('SubQuestionInput', {
  fields: (t) => ({
    key: t.string({ required: true, description: 'The key the proposal gave it (or a new one).' }),
    question: t.string({ required: true }),
    goal: t.string({ required: true }),
    dependsOn: t.stringList({ description: 'Keys of sibling sub-questions it needs first.' }),
  }),
});

const ReviewDecompositionInput = builder.inputType('ReviewDecompositionInput', {
  fields: (t) => ({
    requestId: t.id({ required: true }),
    accept: t.boolean({ required: true, description: 'Approve (with `subQuestions` edited as you like) or reject.' }),
    subQuestions: t.field({
      type: [SubQuestionInput],
      description: 'The accepted sub-questions with your edits; the proposal when omitted.',
    }),
    feedback: t.string({ description: 'Why the proposal was rejected; the agent proposes again with it.' }),
    strategy: t.field({ type: DecompositionStrategyEnum, description: 'Another strategy for the next proposal.' }),
  }),
});

builder.mutationField('reviewDecomposition', (t) =>
  t.field({
    type: AgentRunRef,
    description:
      'Approves, edits or rejects proposed sub-questions. No node exists before approval. Edits whose dependencies ' +
      'close a cycle are refused with a CycleError naming the path, an unknown key with a ValidationError; the ' +
      'question keeps waiting. A strategy given with a rejection is recorded on the node for the next proposal.',
    errors: { types: [...ACCESS_ERRORS, CycleError, UndoRefusedError] },
    args: { input: t.arg({ type: ReviewDecompositionInput, required: true }) },
    resolve: (_root, { input }, ctx) => {
      const reply = input.accept
        ? {
            action: 'approve',
            ...(input.subQuestions
              ? {
                  subQuestions: input.subQuestions.map((s) => ({
                    key: s.key,
                    question: s.question,
                    goal: s.goal,
                    dependsOn: s.dependsOn ?? [],
                  })),
                }
              : {}),
          }
        : { action: 'reject', feedback: input.feedback ?? '', ...(input.strategy ? { strategy: input.strategy } : {}) };
      return replyToQuestion(ctx.runs, ctx.commands, String(input.requestId), { reply });
    },
  }),
);
