import { z } from 'zod';
import { SuggestionKind } from '../../domain/enums.ts';
import { asText, type ReadableFields } from '../../model/readable-stream.ts';

/** The existing commands a critic suggestion may propose. */
export const CriticCommand = {
  /** Add a sub-question under a node (createNode). */
  ADD_SUB_QUESTION: 'ADD_SUB_QUESTION',
  /** Rewrite a node's question, and its goal when given (updateNode). */
  EDIT_QUESTION: 'EDIT_QUESTION',
  /** Mark a concluded node's conclusion out of date, so it is concluded again. */
  REDO_CONCLUSION: 'REDO_CONCLUSION',
  /** Make a node depend on a sibling (addDependency). */
  ADD_DEPENDENCY: 'ADD_DEPENDENCY',
} as const;
export type CriticCommand = (typeof CriticCommand)[keyof typeof CriticCommand];

/**
 * A change as the model proposes it, naming nodes by the keys the prompt gave them (n1, n2, …). Flat with
 * nulls, so every provider's structured output accepts it; each command's fields are checked in code.
 */
export const ProposedChangeSchema = z.object({
  command: z.enum(CriticCommand),
  /** The node the command acts on: the parent for ADD_SUB_QUESTION. */
  node: z.string().min(1).max(20),
  /** The new question (ADD_SUB_QUESTION, EDIT_QUESTION). */
  question: z.string().max(2000).nullable(),
  /** The new goal (ADD_SUB_QUESTION; optional for EDIT_QUESTION). */
  goal: z.string().max(2000).nullable(),
  /** The sibling to depend on (ADD_DEPENDENCY). */
  dependsOn: z.string().max(20).nullable(),
});
export type ProposedChange = z.infer<typeof ProposedChangeSchema>;

/** One finding of a review: what kind, which nodes (keys), why, and the change that fixes it. */
export const CriticFindingSchema = z.object({
  kind: z.enum(SuggestionKind),
  nodes: z.array(z.string().min(1).max(20)).min(1).max(6),
  explanation: z.string().min(1).max(2000),
  change: ProposedChangeSchema,
});
export type CriticFinding = z.infer<typeof CriticFindingSchema>;

/** The critic's answer: a one-line verdict and its findings (none when the map holds up). */
export const CriticReviewSchema = z.object({
  summary: z.string().max(2000),
  findings: z.array(CriticFindingSchema).max(10),
});
export type CriticReview = z.infer<typeof CriticReviewSchema>;

/** What a person reads while the review is written: the verdict. */
export const CRITIC_REVIEW_READABLE: ReadableFields = { summary: asText };

/**
 * A suggested change as it is stored and applied, naming nodes by id: exactly one of the existing commands
 * with its arguments. The server parses stored changes with it before applying one.
 */
export const SuggestedChangeSchema = z.discriminatedUnion('command', [
  z.object({
    command: z.literal(CriticCommand.ADD_SUB_QUESTION),
    parentId: z.string(),
    question: z.string().min(1),
    goal: z.string(),
  }),
  z.object({
    command: z.literal(CriticCommand.EDIT_QUESTION),
    nodeId: z.string(),
    question: z.string().min(1),
    goal: z.string().nullable(),
  }),
  z.object({ command: z.literal(CriticCommand.REDO_CONCLUSION), nodeId: z.string() }),
  z.object({ command: z.literal(CriticCommand.ADD_DEPENDENCY), nodeId: z.string(), dependsOnId: z.string() }),
]);
export type SuggestedChange = z.infer<typeof SuggestedChangeSchema>;
