import { z } from 'zod';
import { ConsultationRecordKind } from '../domain/enums.ts';
import { asText, type ReadableFields } from '../model/readable-stream.ts';
import { SubQuestionProposalSchema } from './sub-question-proposal.ts';

/** Where the front agent sends a turn after its reply: the planner, or nowhere (the person only chats, or ends). */
export const FrontRoute = { PLAN: 'plan', CHAT: 'chat', END: 'end' } as const;
/** One of {@link FrontRoute}'s values. */
export type FrontRoute = (typeof FrontRoute)[keyof typeof FrontRoute];

/** The front agent's answer: its reply to the person (streamed as it is written), then where the turn goes. */
export const FrontReplySchema = z.object({
  reply: z.string().min(1).describe('the answer the person reads, in their language'),
  route: z
    .enum(FrontRoute)
    .describe('plan: the message carries something the planner must work on; chat: small talk; end: the person ends'),
});
/** @see FrontReplySchema */
export type FrontReply = z.infer<typeof FrontReplySchema>;
/** The front agent's reply is what streams, never its JSON. */
export const FRONT_REPLY_READABLE: ReadableFields = { reply: asText };

/** The planner's next move (design 003's `next`): ask the person, write a record, write a note, or finish. */
export const PlannerNext = {
  FRONT: 'front',
  DB_WRITER: 'db_writer',
  NOTE_WRITER: 'note_writer',
  FINISH: 'FINISH',
} as const;
/** One of {@link PlannerNext}'s values. */
export type PlannerNext = (typeof PlannerNext)[keyof typeof PlannerNext];

/** The planner's decision: `{ next, askUser, record, note }`, with the plan it keeps. */
export const PlannerDecisionSchema = z.object({
  next: z.enum(PlannerNext),
  askUser: z.string().min(1).nullable().describe('the question the front agent puts to the person next'),
  record: z
    .object({
      kind: z.enum(ConsultationRecordKind),
      content: z.string().min(1).max(4000),
      sourceMessageId: z.string().nullable().describe('the id of the message it comes from'),
    })
    .nullable(),
  note: z
    .object({
      path: z.string().min(1).max(200).describe('a relative path ending in .md'),
      content: z.string().min(1).max(40_000),
    })
    .nullable(),
  proposal: SubQuestionProposalSchema.extend({
    nodeId: z.string().min(1).describe("the id of the map's node the sub-questions break down"),
  })
    .nullable()
    .optional()
    .describe("sub-questions to propose for one of the map's nodes; the person reviews them before any node exists"),
  plan: z.array(z.string().min(1).max(300)).max(12).optional().describe('the consultation steps, when they change'),
  currentStep: z.number().int().min(0).optional().describe('index of the step in progress'),
  context: z.record(z.string(), z.string().max(500)).optional().describe('short facts to keep, by key'),
});
/** @see PlannerDecisionSchema */
export type PlannerDecision = z.infer<typeof PlannerDecisionSchema>;

/** The summary that replaces earlier messages in prompts (context compression). */
export const ConversationSummarySchema = z.object({ summary: z.string().min(1).max(6000) });
/** @see ConversationSummarySchema */
export type ConversationSummaryAnswer = z.infer<typeof ConversationSummarySchema>;
