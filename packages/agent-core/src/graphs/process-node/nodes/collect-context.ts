import { collectNodeContext } from '../../../context/collect-node-context.ts';
import { formatNodeContext } from '../../../context/format-node-context.ts';
import type { AgentDeps } from '../../shared/agent-deps.ts';
import type { ProcessNodeStateType, ProcessNodeUpdate } from '../state.ts';

/**
 * Marks the node RUNNING and collects its bounded context (plain code, no model). Runs again after a
 * clarifying answer or a knowledge search, so the next decision sees them.
 */
export function collectContext(deps: AgentDeps) {
  return async (state: ProcessNodeStateType): Promise<ProcessNodeUpdate> => {
    await deps.store.setNodeStatus(state.nodeId, 'RUNNING');
    const hood = await deps.store.readNode(state.nodeId);
    const conversation = hood.children.length > 0 ? 'CONCLUDE' : 'DECOMPOSE';
    const context = await collectNodeContext(deps.store, state.nodeId, conversation);
    return {
      language: context.language,
      conversation,
      contextText: formatNodeContext(context),
      facts: {
        mapId: hood.map.id,
        question: hood.node.question,
        goal: hood.node.goal,
        depth: hood.depth,
        childCount: hood.children.length,
        concludedChildCount: hood.children.filter((c) => c.status === 'COMPLETED').length,
      },
    };
  };
}
