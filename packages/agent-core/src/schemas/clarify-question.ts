import { z } from 'zod';

/** A question for the person, with why the agent needs the answer. */
export const ClarifyQuestionSchema = z.object({
  question: z.string().min(1),
  why: z.string().min(1),
});
/** @see ClarifyQuestionSchema */
export type ClarifyQuestion = z.infer<typeof ClarifyQuestionSchema>;
