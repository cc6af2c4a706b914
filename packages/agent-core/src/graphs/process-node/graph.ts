import { END, START, StateGraph } from '@langchain/langgraph';
import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import type { AgentDeps } from '../shared/agent-deps.ts';
import { instrumentStep, type Step } from '../shared/instrument-step.ts';
import { offersTools } from './choose-and-call-tool.ts';
import { callChosenTool } from './nodes/call-chosen-tool.ts';
import { checkDependencies } from './nodes/check-dependencies.ts';
import { collectContext } from './nodes/collect-context.ts';
import { createChildren } from './nodes/create-children.ts';
import { decideStrategy } from './nodes/decide-strategy.ts';
import { draftConclusion } from './nodes/draft-conclusion.ts';
import { formulateQuestion } from './nodes/formulate-question.ts';
import { gatherKnowledge } from './nodes/gather-knowledge.ts';
import { proposeSubQuestions } from './nodes/propose-sub-questions.ts';
import { recognizeIntent } from './nodes/recognize-intent.ts';
import { recordAnswer } from './nodes/record-answer.ts';
import { reviewConclusion } from './nodes/review-conclusion.ts';
import { reviewProposal } from './nodes/review-proposal.ts';
import { saveConclusion } from './nodes/save-conclusion.ts';
import { searchKnowledge } from './nodes/search-knowledge.ts';
import { waitForAnswer } from './nodes/wait-for-answer.ts';
import { PROCESS_NODE_GRAPH } from './process-node-graph-name.ts';
import { ProcessNodeState, type ProcessNodeStateType } from './state.ts';

const BY_INTENT = {
  DECOMPOSE: 'decideStrategy',
  CONCLUDE: 'draftConclusion',
  EXPLORE: 'searchKnowledge',
  CLARIFY: 'formulateQuestion',
} as const;

/**
 * Node processing: collectContext → checkDependencies (blocked → end, no model call) → recognizeIntent →
 * - DECOMPOSE: decideStrategy → [gatherKnowledge → [callChosenTool]] → proposeSubQuestions → reviewProposal
 *   (person approves/edits/rejects; reject loops to proposeSubQuestions) → createChildren
 * - CONCLUDE: [gatherKnowledge → [callChosenTool]] → draftConclusion → reviewConclusion (feedback loops to
 *   draftConclusion) → saveConclusion
 * - CLARIFY: formulateQuestion → waitForAnswer (person answers) → recordAnswer → collectContext
 * - EXPLORE: searchKnowledge → [callChosenTool] → collectContext
 * Steps in brackets run only when the knowledge port is configured (and, for callChosenTool, offers tools
 * such as `domain_knowledge` for the model to choose from), so without knowledge the graph runs exactly as
 * before; knowledge steps stay out of the review loops, so each agent retrieves once per node.
 * Input: `{ nodeId, intentOverride?, strategyOverride?, conclusionKind? }`; output state has `outcome`.
 * Every step that asks the person does nothing but ask, so LangGraph's re-run on resume is harmless.
 */
export function createProcessNodeGraph(deps: AgentDeps, options: { checkpointer?: BaseCheckpointSaver } = {}) {
  const knowing = Boolean(deps.knowledge);
  const withTools = offersTools(deps.knowledge);
  const afterKnowledge = (s: ProcessNodeStateType) =>
    s.intent === 'CONCLUDE' ? 'draftConclusion' : 'proposeSubQuestions';
  const step = <U>(name: string, fn: Step<ProcessNodeStateType, U>) =>
    instrumentStep(PROCESS_NODE_GRAPH, name, deps.events, fn);
  return new StateGraph(ProcessNodeState)
    .addNode('collectContext', step('collectContext', collectContext(deps)))
    .addNode('checkDependencies', step('checkDependencies', checkDependencies(deps)))
    .addNode('recognizeIntent', step('recognizeIntent', recognizeIntent(deps)))
    .addNode('decideStrategy', step('decideStrategy', decideStrategy(deps)))
    .addNode('proposeSubQuestions', step('proposeSubQuestions', proposeSubQuestions(deps)))
    .addNode('reviewProposal', step('reviewProposal', reviewProposal()))
    .addNode('createChildren', step('createChildren', createChildren(deps)))
    .addNode('draftConclusion', step('draftConclusion', draftConclusion(deps)))
    .addNode('reviewConclusion', step('reviewConclusion', reviewConclusion()))
    .addNode('saveConclusion', step('saveConclusion', saveConclusion(deps)))
    .addNode('formulateQuestion', step('formulateQuestion', formulateQuestion(deps)))
    .addNode('waitForAnswer', step('waitForAnswer', waitForAnswer()))
    .addNode('recordAnswer', step('recordAnswer', recordAnswer(deps)))
    .addNode('searchKnowledge', step('searchKnowledge', searchKnowledge(deps)))
    .addNode('gatherKnowledge', step('gatherKnowledge', gatherKnowledge(deps)))
    .addNode('callChosenTool', step('callChosenTool', callChosenTool(deps)))
    .addEdge(START, 'collectContext')
    .addEdge('collectContext', 'checkDependencies')
    .addConditionalEdges('checkDependencies', (s) => (s.blockedReason ? END : 'recognizeIntent'), [
      'recognizeIntent',
      END,
    ])
    .addConditionalEdges(
      'recognizeIntent',
      (s) => (s.intent === 'CONCLUDE' && knowing ? 'gatherKnowledge' : BY_INTENT[s.intent!]),
      [...Object.values(BY_INTENT), 'gatherKnowledge'],
    )
    .addConditionalEdges('decideStrategy', () => (knowing ? 'gatherKnowledge' : 'proposeSubQuestions'), [
      'gatherKnowledge',
      'proposeSubQuestions',
    ])
    .addConditionalEdges('gatherKnowledge', (s) => (withTools ? 'callChosenTool' : afterKnowledge(s)), [
      'callChosenTool',
      'draftConclusion',
      'proposeSubQuestions',
    ])
    .addEdge('proposeSubQuestions', 'reviewProposal')
    .addConditionalEdges('reviewProposal', (s) => (s.proposalApproved ? 'createChildren' : 'proposeSubQuestions'), [
      'createChildren',
      'proposeSubQuestions',
    ])
    .addEdge('createChildren', END)
    .addEdge('draftConclusion', 'reviewConclusion')
    .addConditionalEdges('reviewConclusion', (s) => (s.conclusionAccepted ? 'saveConclusion' : 'draftConclusion'), [
      'saveConclusion',
      'draftConclusion',
    ])
    .addEdge('saveConclusion', END)
    .addEdge('formulateQuestion', 'waitForAnswer')
    .addEdge('waitForAnswer', 'recordAnswer')
    .addEdge('recordAnswer', 'collectContext')
    .addConditionalEdges('searchKnowledge', () => (withTools ? 'callChosenTool' : 'collectContext'), [
      'callChosenTool',
      'collectContext',
    ])
    .addConditionalEdges('callChosenTool', (s) => (s.intent === 'EXPLORE' ? 'collectContext' : afterKnowledge(s)), [
      'collectContext',
      'draftConclusion',
      'proposeSubQuestions',
    ])
    .compile({ checkpointer: options.checkpointer });
}
