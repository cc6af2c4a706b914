import { Annotation } from '@langchain/langgraph';
import { z } from 'zod';
import type { Language } from '../../domain/enums.ts';
import { type Understanding, UnderstandingSchema } from '../../schemas/understanding.ts';

const last = <T>(initial: () => T) => Annotation<T>({ reducer: (_, next) => next, default: initial });

/** One corrected restatement: what the agent understood and what the person said was different. */
export interface UnderstandingRound {
  understanding: Understanding;
  correction: string;
}

/** State of the problem understanding graph. */
export const UnderstandProblemState = Annotation.Root({
  /** The map being understood (input). */
  mapId: last<string>(() => ''),
  /** The problem as the person wrote it (input). */
  problem: last<string>(() => ''),
  /** The title, goal and constraints the person gave with it, if any (input): restated, never dropped. */
  title: last<string>(() => ''),
  goal: last<string>(() => ''),
  constraints: last<string[]>(() => []),
  /** The map's language; detected from `problem` when the input leaves it null. */
  language: last<Language | null>(() => null),
  /** The latest restatement shown to the person. */
  understanding: last<Understanding | null>(() => null),
  /** The person's correction of the latest restatement, consumed by the next restatement. */
  correction: last<string | null>(() => null),
  /** Earlier restatements, each with the correction the person gave it, oldest first (shown as the exchange). */
  history: Annotation<UnderstandingRound[]>({ reducer: (all, next) => [...all, ...next], default: () => [] }),
  /** True once the person confirmed (never by expiry: the question just waits). */
  confirmed: last<boolean>(() => false),
  /** How many restatements were made. */
  rounds: last<number>(() => 0),
  /** The root node created at the end. */
  rootNodeId: last<string | null>(() => null),
  /** Always null: this graph works on the map, not on a node (kept for step instrumentation). */
  nodeId: last<string | null>(() => null),
});
/** @see UnderstandProblemState */
export type UnderstandProblemStateType = typeof UnderstandProblemState.State;
/** @see UnderstandProblemState */
export type UnderstandProblemUpdate = typeof UnderstandProblemState.Update;

/** What the person answers to a restatement: confirm (optionally with direct edits) or correct. A gate. */
export const ConfirmUnderstandingReplySchema = z.union([
  z.object({ confirm: z.literal(true), edits: UnderstandingSchema.partial().optional() }),
  z.object({ correction: z.string().min(1) }),
]);
/** @see ConfirmUnderstandingReplySchema */
export type ConfirmUnderstandingReply = z.infer<typeof ConfirmUnderstandingReplySchema>;
