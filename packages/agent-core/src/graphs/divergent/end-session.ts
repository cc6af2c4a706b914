import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import type { DivergentOutcome } from '../../domain/enums.ts';
import { runRefOf, writeKey } from '../shared/run-config.ts';
import type { DivergentDeps } from './divergent-deps.ts';
import { DIVERGENT_GRAPH } from './divergent-graph-name.ts';
import type { DivergentStateType, DivergentUpdate } from './state.ts';

/** How a session ends: the note (posted on `nodeId`), the outcome, the level reached and the final output. */
export interface SessionEnd {
  nodeId: string;
  note: string;
  outcome: DivergentOutcome;
  level: number;
  finalNodeId: string | null;
  /** Keys of the finished tasks the final output drew on (none without one). */
  drewOn?: string[];
  /** The note's idempotency key: the step that ends the session, and what in it. */
  key: [step: string, ...parts: (string | number)[]];
}

/**
 * Ends the session: posts the note on how it ended as a NOTICE on `end.nodeId` and reports
 * `DivergentFinished`. Every way a session ends goes through here.
 */
export async function endSession(
  deps: DivergentDeps,
  state: DivergentStateType,
  config: LangGraphRunnableConfig,
  end: SessionEnd,
): Promise<DivergentUpdate> {
  const { nodeId, note, outcome, level, finalNodeId } = end;
  await deps.store.postMessage({
    nodeId,
    conversation: 'CONCLUDE',
    role: 'SYSTEM',
    kind: 'NOTICE',
    content: note,
    idempotencyKey: writeKey(config, ...end.key),
  });
  deps.events.divergent?.(runRefOf(config, DIVERGENT_GRAPH, state.nodeId), {
    type: 'DivergentFinished',
    payload: { outcome, level, finalNodeId, note, drewOn: end.drewOn ?? [] },
  });
  return { finalNodeId, note, outcome };
}
