import { CycleError } from '../commands/domain-errors.ts';
import { UndoRefusedError } from '../history/undo-refused-error.ts';
import { builder } from '../schema/builder.ts';
import { ACCESS_ERRORS } from '../schema/errors.type.ts';
import { replyToQuestion } from './reply-to-question.ts';
import { AgentRunRef } from './run.type.ts';

const ReplyToAgentInput = builder.inputType('ReplyToAgentInput', {
  fields: (t) => ({
    requestId: t.id({ required: true }),
    accept: t.boolean({
      description: 'Confirm the restated problem, approve the sub-questions, accept the conclusion.',
    }),
    text: t.string({ description: 'An answer to a clarifying question, a correction, or feedback for another draft.' }),
    skip: t.boolean({
      description: 'Skip a clarifying question: its run goes on with what it has. Refused for the other kinds.',
    }),
    reply: t.field({
      type: 'JSON',
      description: "The exact reply object for the question's kind (see PendingQuestion.kind).",
    }),
  }),
});

builder.mutationField('replyToAgent', (t) =>
  t.field({
    type: AgentRunRef,
    description:
      'Answers a waiting question (or an expired review or confirmation, whose run paused): its run resumes where ' +
      'it paused. Edited sub-questions whose dependencies close a cycle are refused with a CycleError.',
    errors: { types: [...ACCESS_ERRORS, CycleError, UndoRefusedError] },
    args: { input: t.arg({ type: ReplyToAgentInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      replyToQuestion(ctx.runs, ctx.commands, String(input.requestId), {
        accept: input.accept,
        text: input.text,
        skip: input.skip,
        reply: input.reply,
      }),
  }),
);
