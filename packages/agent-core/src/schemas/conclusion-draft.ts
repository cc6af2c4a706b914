import { z } from 'zod';
import { ConclusionKindSchema } from '../domain/enums.ts';
import { asBullets, asText, type ReadableFields } from '../model/readable-stream.ts';

/** A drafted conclusion for a node, shown to the person for feedback before it is stored. */
export const ConclusionDraftSchema = z.object({
  kind: ConclusionKindSchema,
  /** Why this kind of conclusion (analytical, creative, decision, learning) fits the question, in one sentence. */
  kindReason: z.string().min(1).optional(),
  conclusion: z.string().min(1),
  keyPoints: z.array(z.string()).max(8),
  confidence: z.number().min(0).max(1),
});
/** @see ConclusionDraftSchema */
export type ConclusionDraft = z.infer<typeof ConclusionDraftSchema>;

/** What a person reads while a conclusion is drafted: its text, then its key points. */
export const CONCLUSION_DRAFT_READABLE: ReadableFields = { conclusion: asText, keyPoints: asBullets };
