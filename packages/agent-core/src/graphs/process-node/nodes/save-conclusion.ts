import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import type { AgentDeps } from '../../shared/agent-deps.ts';
import { writeKey } from '../../shared/run-config.ts';
import type { ProcessNodeStateType, ProcessNodeUpdate } from '../state.ts';

/** Stores the accepted conclusion through the store port, which marks the node COMPLETED. */
export function saveConclusion(deps: AgentDeps) {
  return async (state: ProcessNodeStateType, config: LangGraphRunnableConfig): Promise<ProcessNodeUpdate> => {
    const draft = state.draft!;
    await deps.store.concludeNode(state.nodeId, {
      text: draft.conclusion,
      kind: draft.kind,
      idempotencyKey: writeKey(config, 'saveConclusion'),
    });
    return { outcome: 'CONCLUDED' };
  };
}
