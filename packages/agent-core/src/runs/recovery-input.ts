import { Command } from '@langchain/langgraph';

/** The part of a compiled graph {@link recoveryInput} uses. */
export interface InspectableGraph {
  getState(config: { configurable: Record<string, unknown> }): Promise<{
    createdAt?: string;
    tasks: readonly { interrupts: readonly { id?: string }[] }[];
  }>;
}

/**
 * What to drive a run with when the process that drove it died mid-drive. Checkpoints are stored only when
 * a drive stops (`durability: 'exit'`, or each step's kept in memory until then), so the run's latest checkpoint
 * is its last pause, or there is none:
 * - no checkpoint: start again from the run's `input`;
 * - a pause whose questions the person already answered (`replies`, by interrupt id): resume with those
 *   replies, since the resumed drive that died had stored nothing of them;
 * - otherwise: go on from the checkpoint (`null`); a question still unanswered is simply asked again.
 */
export async function recoveryInput(
  graph: InspectableGraph,
  threadId: string,
  input: unknown,
  replies: ReadonlyMap<string, unknown>,
): Promise<unknown> {
  const state = await graph.getState({ configurable: { thread_id: threadId } });
  if (state.createdAt === undefined) return input;
  const answered = state.tasks
    .flatMap((task) => task.interrupts.map((i) => i.id))
    .filter((id): id is string => id !== undefined && replies.has(id));
  if (answered.length === 0) return null;
  return new Command({ resume: Object.fromEntries(answered.map((id) => [id, replies.get(id)])) });
}
