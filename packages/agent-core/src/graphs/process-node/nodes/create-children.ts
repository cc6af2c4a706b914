import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import { planProposalDependencies } from '../../../dependencies/plan-proposal-dependencies.ts';
import type { AgentDeps } from '../../shared/agent-deps.ts';
import { writeKey } from '../../shared/run-config.ts';
import { recordChildrenDecisions } from '../children-decisions.ts';
import type { ProcessNodeStateType, ProcessNodeUpdate } from '../state.ts';

/**
 * Creates the approved sub-questions as child nodes and their sibling dependencies through the store port
 * (so each is an event). Every write carries an idempotency key built from the proposal round and the
 * sub-question's key, so a re-run after a crash creates nothing twice. Children that wait on a sibling
 * start BLOCKED, the others READY. The sub-questions and dependencies are recorded as decisions of the run.
 */
export function createChildren(deps: AgentDeps) {
  return async (state: ProcessNodeStateType, config: LangGraphRunnableConfig): Promise<ProcessNodeUpdate> => {
    const proposal = state.proposal!;
    const round = state.proposalRound;
    const idByKey = new Map<string, string>();
    for (const sub of proposal.subQuestions) {
      const child = await deps.store.createNode({
        mapId: state.facts!.mapId,
        parentId: state.nodeId,
        question: sub.question,
        goal: sub.goal,
        idempotencyKey: writeKey(config, 'createChildren', round, sub.key),
      });
      idByKey.set(sub.key, child.id);
    }
    const { edges } = planProposalDependencies(proposal.subQuestions);
    for (const edge of edges) {
      await deps.store.addDependency(idByKey.get(edge.nodeId)!, idByKey.get(edge.dependsOnId)!, {
        idempotencyKey: writeKey(config, 'createChildren', round, edge.nodeId, edge.dependsOnId),
      });
    }
    const waiting = new Set(edges.map((e) => e.nodeId));
    for (const [key, id] of idByKey) await deps.store.setNodeStatus(id, waiting.has(key) ? 'BLOCKED' : 'READY');
    await deps.store.setNodeStatus(state.nodeId, 'PENDING');
    await recordChildrenDecisions(deps, state, config);
    return { createdNodeIds: [...idByKey.values()], outcome: 'DECOMPOSED' };
  };
}
