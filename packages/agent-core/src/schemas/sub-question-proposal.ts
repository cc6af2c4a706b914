import { z } from 'zod';
import { asBullets, asText, type ReadableFields } from '../model/readable-stream.ts';

/** One proposed sub-question. `key` names it inside the proposal so siblings can depend on it. */
export const ProposedSubQuestionSchema = z.object({
  key: z.string().min(1).max(20),
  question: z.string().min(1),
  goal: z.string().min(1),
  /** Keys of sibling sub-questions whose conclusions this one needs first. */
  dependsOn: z.array(z.string()).default([]),
});
/** @see ProposedSubQuestionSchema */
export type ProposedSubQuestion = z.infer<typeof ProposedSubQuestionSchema>;

/** The sub-questions proposed for a node, reviewed by the person before any node is created. */
export const SubQuestionProposalSchema = z.object({
  subQuestions: z.array(ProposedSubQuestionSchema).min(1).max(8),
  rationale: z.string().min(1),
});
/** @see SubQuestionProposalSchema */
export type SubQuestionProposal = z.infer<typeof SubQuestionProposalSchema>;

/** What a person reads while sub-questions are proposed: the rationale and one line per sub-question. */
export const SUB_QUESTION_PROPOSAL_READABLE: ReadableFields = { rationale: asText, subQuestions: asBullets };
