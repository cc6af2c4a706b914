import { boundContext } from '../../../context/bound-context.ts';
import { buildNodeContext, readContextSources } from '../../../context/collect-node-context.ts';
import { CONTEXT_LIMITS } from '../../../context/context-limits.ts';
import type { AgentDeps } from '../../shared/agent-deps.ts';
import type { ProcessNodeStateType, ProcessNodeUpdate } from '../state.ts';

/**
 * Marks the node RUNNING and collects its context with both its conversations (plain code, no model); each
 * agent then reads its own view of it (`contextFor`). Runs again after a clarifying answer or a knowledge
 * search, so the next decision sees them. Kept within twice one view's bound, so a checkpoint stays small.
 */
export function collectContext(deps: AgentDeps) {
  return async (state: ProcessNodeStateType): Promise<ProcessNodeUpdate> => {
    await deps.store.setNodeStatus(state.nodeId, 'RUNNING');
    const { hood, tails } = await readContextSources(deps.store, state.nodeId);
    const context = boundContext(buildNodeContext(hood, tails), 2 * CONTEXT_LIMITS.MAX_CONTEXT_CHARS);
    return {
      language: context.language,
      conversation: hood.children.length > 0 ? 'CONCLUDE' : 'DECOMPOSE',
      context,
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
