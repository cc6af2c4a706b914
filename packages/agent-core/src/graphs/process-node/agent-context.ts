import { BOTH_CONVERSATIONS } from '../../context/collect-node-context.ts';
import { contextView } from '../../context/context-view.ts';
import { formatNodeContext } from '../../context/format-node-context.ts';
import type { ConversationKind } from '../../domain/enums.ts';
import type { AgentName } from '../../ports/model-port.ts';
import { resultContent } from './knowledge-snippets.ts';
import type { ProcessNodeStateType } from './state.ts';

/** The agents of node processing. */
export type NodeAgent = Exclude<
  AgentName,
  'understand' | 'diverge' | 'skill' | 'evaluate' | 'front' | 'planner' | 'summarize' | 'critic'
>;

/**
 * Which of the node's conversations each agent reads, its own first (design 000 §3.1: a node's recent
 * messages feed both its decomposition and its conclusion). Every agent reads both, each under its own
 * heading, so what the person said about splitting the question reaches its conclusion and the other way round.
 */
export const CONVERSATIONS_READ: Record<NodeAgent, readonly ConversationKind[]> = {
  intent: BOTH_CONVERSATIONS,
  clarify: BOTH_CONVERSATIONS,
  explore: BOTH_CONVERSATIONS,
  strategy: ['DECOMPOSE', 'CONCLUDE'],
  decompose: ['DECOMPOSE', 'CONCLUDE'],
  conclude: ['CONCLUDE', 'DECOMPOSE'],
};

/**
 * The node's context as `agent`'s prompt shows it: both conversations, its own first, bounded. For the agents whose
 * prompt carries retrieved knowledge (decompose, conclude), the passages it holds are not repeated from
 * the conversation.
 */
export function contextFor(state: ProcessNodeStateType, agent: NodeAgent): string {
  if (!state.context) return '';
  const withKnowledge = agent === 'decompose' || agent === 'conclude';
  const knownPassages = withKnowledge ? state.knowledgeResults.map(resultContent) : [];
  return formatNodeContext(contextView(state.context, CONVERSATIONS_READ[agent], { knownPassages }));
}
