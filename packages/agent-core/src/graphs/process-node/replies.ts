import { z } from 'zod';
import { DecompositionStrategySchema } from '../../domain/enums.ts';
import { ProposedSubQuestionSchema } from '../../schemas/sub-question-proposal.ts';

const Expired = z.object({ expired: z.literal(true) });

/** The person's review of proposed sub-questions: approve (optionally an edited list), or reject with feedback. */
export const ReviewDecompositionReplySchema = z.union([
  z.object({
    action: z.literal('approve'),
    subQuestions: z.array(ProposedSubQuestionSchema).min(1).max(12).optional(),
  }),
  z.object({
    action: z.literal('reject'),
    feedback: z.string().min(1),
    strategy: DecompositionStrategySchema.optional(),
  }),
  Expired,
]);
/** @see ReviewDecompositionReplySchema */
export type ReviewDecompositionReply = z.infer<typeof ReviewDecompositionReplySchema>;

/** The person's review of a drafted conclusion: accept (optionally edited), or ask for a revision. */
export const ReviewConclusionReplySchema = z.union([
  z.object({ action: z.literal('accept'), conclusion: z.string().min(1).optional() }),
  z.object({ action: z.literal('revise'), feedback: z.string().min(1) }),
  Expired,
]);
/** @see ReviewConclusionReplySchema */
export type ReviewConclusionReply = z.infer<typeof ReviewConclusionReplySchema>;

/** The person's answer to a clarifying question. */
export const ClarifyReplySchema = z.union([z.object({ answer: z.string().min(1) }), Expired]);
/** @see ClarifyReplySchema */
export type ClarifyReply = z.infer<typeof ClarifyReplySchema>;
