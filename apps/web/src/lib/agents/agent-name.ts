import { AgentGraph, isOneOf } from '@thinkingmap/db/enums';

const GRAPHS = Object.values(AgentGraph);

/**
 * The message naming an agent graph's run ("Thinking about this question", "Reviewing the map"…): every graph
 * of `AgentGraph` has its own (the type fails to check when a new graph has no words), anything else is "An
 * agent". The run view and the run history both name runs through it.
 */
export function agentNameKey(agent: string | null | undefined): `run.agent.${AgentGraph}` | 'run.agent.other' {
  return agent && isOneOf(GRAPHS, agent) ? `run.agent.${agent}` : 'run.agent.other';
}
