import type { ConversationKind } from '../../domain/enums.ts';
import type { ToolChoosingAgent } from '../../prompts/choose-tool.ts';
import type { ProcessNodeStateType } from './state.ts';

/** Which agent retrieves knowledge in the current step, and in which conversation its results are posted. */
export interface KnowledgeStep {
  agent: ToolChoosingAgent;
  conversation: ConversationKind;
}

/**
 * Exploring posts in the node's current conversation; gathering before a conclusion posts in CONCLUDE and
 * before a decomposition in DECOMPOSE, so each agent finds its sources next to its own work.
 */
export function knowledgeStepOf(state: ProcessNodeStateType): KnowledgeStep {
  if (state.intent === 'EXPLORE') return { agent: 'explore', conversation: state.conversation };
  if (state.intent === 'CONCLUDE') return { agent: 'conclude', conversation: 'CONCLUDE' };
  return { agent: 'decompose', conversation: 'DECOMPOSE' };
}
