import { z } from 'zod';
import { asBullets, asText, type ReadableFields } from '../model/readable-stream.ts';

/** What problem understanding restates for the person to confirm or correct. */
export const UnderstandingSchema = z.object({
  /** A short title for the map (at most ~40 characters). */
  title: z.string().min(1).max(80),
  /** The problem restated in the person's language, precise and complete. */
  problem: z.string().min(1),
  /** What a good answer achieves. */
  goal: z.string().min(1),
  /** Limits the answer must respect (budget, time, scope); may be empty. */
  constraints: z.array(z.string()).max(12),
});
/** @see UnderstandingSchema */
export type Understanding = z.infer<typeof UnderstandingSchema>;

/** What a person reads while the problem is restated: the problem, the goal, one line per constraint. */
export const UNDERSTANDING_READABLE: ReadableFields = { problem: asText, goal: asText, constraints: asBullets };
