import { z } from 'zod';
import { DecompositionStrategySchema } from '../domain/enums.ts';

/** One factor the decomposition decision weighed (complexity, knowledge gaps, sub-task potential, preference). */
export const StrategyFactorSchema = z.object({
  factor: z.string().min(1),
  assessment: z.string().min(1),
});

/** The decomposition strategy chosen for a node, with the factors weighed. */
export const StrategyDecisionSchema = z.object({
  strategy: DecompositionStrategySchema,
  factors: z.array(StrategyFactorSchema).min(1).max(6),
  reason: z.string().min(1),
});
/** @see StrategyDecisionSchema */
export type StrategyDecision = z.infer<typeof StrategyDecisionSchema>;
