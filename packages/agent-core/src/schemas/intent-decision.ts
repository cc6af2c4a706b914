import { z } from 'zod';
import { NodeIntentSchema } from '../domain/enums.ts';

/** The intent recognised for a node, with why. */
export const IntentDecisionSchema = z.object({
  intent: NodeIntentSchema,
  /** Why this intent, in one or two sentences the person can read. */
  reason: z.string().min(1),
  /** How sure the agent is, 0 to 1. */
  confidence: z.number().min(0).max(1),
});
/** @see IntentDecisionSchema */
export type IntentDecision = z.infer<typeof IntentDecisionSchema>;
