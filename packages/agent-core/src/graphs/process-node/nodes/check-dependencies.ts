import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import { checkDependencies as readinessOf } from '../../../dependencies/check-dependencies.ts';
import type { AgentDeps } from '../../shared/agent-deps.ts';
import { writeKey } from '../../shared/run-config.ts';
import type { ProcessNodeStateType, ProcessNodeUpdate } from '../state.ts';

/**
 * Checks that every sibling the node depends on is concluded. A blocked node is marked BLOCKED with a clear
 * reason (also posted as a notice) and the run ends without any model call.
 */
export function checkDependencies(deps: AgentDeps) {
  return async (state: ProcessNodeStateType, config: LangGraphRunnableConfig): Promise<ProcessNodeUpdate> => {
    const result = readinessOf(await deps.store.readNode(state.nodeId));
    if (result.ready) return { blockedReason: null };
    const names = result.openDependencies.map((d) => `“${d.question}”`).join(state.language === 'zh' ? '、' : ', ');
    const reason = state.language === 'zh' ? `需要先得出这些问题的结论：${names}` : result.reason;
    await deps.store.setNodeStatus(state.nodeId, 'BLOCKED', reason);
    await deps.store.postMessage({
      nodeId: state.nodeId,
      conversation: state.conversation,
      role: 'SYSTEM',
      kind: 'NOTICE',
      content: reason,
      metadata: { blockedBy: result.openDependencies.map((d) => d.id) },
      idempotencyKey: writeKey(config, 'checkDependencies'),
    });
    return { blockedReason: reason, outcome: 'BLOCKED' };
  };
}
