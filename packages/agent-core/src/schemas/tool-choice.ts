import { z } from 'zod';

/** The explore agent's choice of one extra knowledge tool to call, or of none (`tool: null`). */
export const ToolChoiceSchema = z.object({
  /** The id of a listed tool, or null when no tool would help. */
  tool: z.string().nullable(),
  /** The tool's arguments, matching its input schema; empty when no tool is chosen. */
  arguments: z.record(z.string(), z.unknown()),
  why: z.string(),
});
/** @see ToolChoiceSchema */
export type ToolChoice = z.infer<typeof ToolChoiceSchema>;
