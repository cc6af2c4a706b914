import { z } from 'zod';
import { DecompositionStrategySchema } from '../../domain/enums.ts';
import { ProposedSubQuestionSchema } from '../../schemas/sub-question-proposal.ts';

const Expired = z.object({ expired: z.literal(true) });
/** The person skipped a clarifying question: the run goes on with what it has, as when it expires. */
const Skipped = z.object({ skipped: z.literal(true) });

/**
 * The person's review of proposed sub-questions: approve (optionally an edited list), or reject with feedback
 * (and optionally another strategy). A gate: there is no expired reply, only the person's.
 */
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
]);
/** @see ReviewDecompositionReplySchema */
export type ReviewDecompositionReply = z.infer<typeof ReviewDecompositionReplySchema>;

/** The person's review of a drafted conclusion: accept (optionally edited), or ask for a revision. A gate. */
export const ReviewConclusionReplySchema = z.union([
  z.object({ action: z.literal('accept'), conclusion: z.string().min(1).optional() }),
  z.object({ action: z.literal('revise'), feedback: z.string().min(1) }),
]);
/** @see ReviewConclusionReplySchema */
export type ReviewConclusionReply = z.infer<typeof ReviewConclusionReplySchema>;

/** The person's answer to a clarifying question, or that they skipped it, or that it expired. */
export const ClarifyReplySchema = z.union([z.object({ answer: z.string().min(1) }), Skipped, Expired]);
/** @see ClarifyReplySchema */
export type ClarifyReply = z.infer<typeof ClarifyReplySchema>;
