import { builder } from '../builder.ts';
import { ACCESS_ERRORS } from '../types/errors.type.ts';
import { AgentRunRef } from '../types/run.type.ts';

const ReplyToAgentInput = builder.inputType('ReplyToAgentInput', {
  fields: (t) => ({
    requestId: t.id({ required: true }),
    accept: t.boolean({
      description: 'Confirm the restated problem, approve the sub-questions, accept the conclusion.',
    }),
    text: t.string({ description: 'An answer to a clarifying question, a correction, or feedback for another draft.' }),
    reply: t.field({
      type: 'JSON',
      description: "The exact reply object for the question's kind (see PendingQuestion.kind).",
    }),
  }),
});

builder.mutationField('replyToAgent', (t) =>
  t.field({
    type: AgentRunRef,
    description: 'Answers a waiting question; its run resumes where it paused.',
    errors: { types: ACCESS_ERRORS },
    args: { input: t.arg({ type: ReplyToAgentInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      ctx.runs.reply(ctx.commands, String(input.requestId), {
        accept: input.accept,
        text: input.text,
        reply: input.reply,
      }),
  }),
);
