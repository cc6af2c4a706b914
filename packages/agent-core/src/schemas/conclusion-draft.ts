import { z } from 'zod';
import { ConclusionKindSchema } from '../domain/enums.ts';

/** A drafted conclusion for a node, shown to the person for feedback before it is stored. */
export const ConclusionDraftSchema = z.object({
  kind: ConclusionKindSchema,
  conclusion: z.string().min(1),
  keyPoints: z.array(z.string()).max(8),
  confidence: z.number().min(0).max(1),
});
/** @see ConclusionDraftSchema */
export type ConclusionDraft = z.infer<typeof ConclusionDraftSchema>;
