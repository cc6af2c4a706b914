import * as z from 'zod';

/** The shape of a {@link import('./search-hit.ts').SearchHit} in tool results' `structuredContent`. */
export const hitSchema = z.object({
  path: z.string().describe('File path relative to the knowledge folder'),
  title: z.string(),
  headings: z.array(z.string()),
  startLine: z.number().int().describe('First quoted line, 1-based'),
  endLine: z.number().int().describe('Last quoted line, 1-based, inclusive'),
  snippet: z.string(),
  score: z.number(),
});
