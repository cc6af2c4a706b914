import { END, START, StateGraph } from '@langchain/langgraph';
import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import type { AgentDeps } from '../shared/agent-deps.ts';
import { instrumentStep, type Step } from '../shared/instrument-step.ts';
import { StepKind, stepKind } from '../shared/step-kind.ts';
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

/** The branch each intent takes out of `recognizeIntent` (the labels of its path map). */
const BY_INTENT = {
  DECOMPOSE: 'decompose',
  CONCLUDE: 'conclude',
  EXPLORE: 'explore',
  CLARIFY: 'clarify',
} as const;

const AGENT = stepKind(StepKind.AGENT);
const TOOL = stepKind(StepKind.TOOL);
const HUMAN = stepKind(StepKind.HUMAN);

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
 * Each step is added with its kind (agent / tool / human) and each conditional edge with a labelled path map,
 * so `describeGraph` draws this graph from the compiled one.
 */
export function createProcessNodeGraph(deps: AgentDeps, options: { checkpointer?: BaseCheckpointSaver } = {}) {
  const knowing = Boolean(deps.knowledge);
  const withTools = offersTools(deps.knowledge);
  const afterKnowledge = (s: ProcessNodeStateType) => (s.intent === 'CONCLUDE' ? 'conclude' : 'decompose');
  const step = <U>(name: string, fn: Step<ProcessNodeStateType, U>) =>
    instrumentStep(PROCESS_NODE_GRAPH, name, deps.events, fn);
  return new StateGraph(ProcessNodeState)
    .addNode('collectContext', step('collectContext', collectContext(deps)), TOOL)
    .addNode('checkDependencies', step('checkDependencies', checkDependencies(deps)), TOOL)
    .addNode('recognizeIntent', step('recognizeIntent', recognizeIntent(deps)), AGENT)
    .addNode('decideStrategy', step('decideStrategy', decideStrategy(deps)), AGENT)
    .addNode('proposeSubQuestions', step('proposeSubQuestions', proposeSubQuestions(deps)), AGENT)
    .addNode('reviewProposal', step('reviewProposal', reviewProposal()), HUMAN)
    .addNode('createChildren', step('createChildren', createChildren(deps)), TOOL)
    .addNode('draftConclusion', step('draftConclusion', draftConclusion(deps)), AGENT)
    .addNode('reviewConclusion', step('reviewConclusion', reviewConclusion()), HUMAN)
    .addNode('saveConclusion', step('saveConclusion', saveConclusion(deps)), TOOL)
    .addNode('formulateQuestion', step('formulateQuestion', formulateQuestion(deps)), AGENT)
    .addNode('waitForAnswer', step('waitForAnswer', waitForAnswer()), HUMAN)
    .addNode('recordAnswer', step('recordAnswer', recordAnswer(deps)), TOOL)
    .addNode('searchKnowledge', step('searchKnowledge', searchKnowledge(deps)), TOOL)
    .addNode('gatherKnowledge', step('gatherKnowledge', gatherKnowledge(deps)), TOOL)
    .addNode('callChosenTool', step('callChosenTool', callChosenTool(deps)), TOOL)
    .addEdge(START, 'collectContext')
    .addEdge('collectContext', 'checkDependencies')
    .addConditionalEdges('checkDependencies', (s) => (s.blockedReason ? 'blocked' : 'ready'), {
      ready: 'recognizeIntent',
      blocked: END,
    })
    .addConditionalEdges(
      'recognizeIntent',
      (s) => (s.intent === 'CONCLUDE' && knowing ? 'concludeWithKnowledge' : BY_INTENT[s.intent!]),
      {
        decompose: 'decideStrategy',
        conclude: 'draftConclusion',
        concludeWithKnowledge: 'gatherKnowledge',
        explore: 'searchKnowledge',
        clarify: 'formulateQuestion',
      },
    )
    .addConditionalEdges('decideStrategy', () => (knowing ? 'withKnowledge' : 'withoutKnowledge'), {
      withKnowledge: 'gatherKnowledge',
      withoutKnowledge: 'proposeSubQuestions',
    })
    .addConditionalEdges('gatherKnowledge', (s) => (withTools ? 'tools' : afterKnowledge(s)), {
      tools: 'callChosenTool',
      conclude: 'draftConclusion',
      decompose: 'proposeSubQuestions',
    })
    .addEdge('proposeSubQuestions', 'reviewProposal')
    .addConditionalEdges('reviewProposal', (s) => (s.proposalApproved ? 'approved' : 'rejected'), {
      approved: 'createChildren',
      rejected: 'proposeSubQuestions',
    })
    .addEdge('createChildren', END)
    .addEdge('draftConclusion', 'reviewConclusion')
    .addConditionalEdges('reviewConclusion', (s) => (s.conclusionAccepted ? 'accepted' : 'feedback'), {
      accepted: 'saveConclusion',
      feedback: 'draftConclusion',
    })
    .addEdge('saveConclusion', END)
    .addEdge('formulateQuestion', 'waitForAnswer')
    .addEdge('waitForAnswer', 'recordAnswer')
    .addEdge('recordAnswer', 'collectContext')
    .addConditionalEdges('searchKnowledge', () => (withTools ? 'tools' : 'explored'), {
      tools: 'callChosenTool',
      explored: 'collectContext',
    })
    .addConditionalEdges('callChosenTool', (s) => (s.intent === 'EXPLORE' ? 'explored' : afterKnowledge(s)), {
      explored: 'collectContext',
      conclude: 'draftConclusion',
      decompose: 'proposeSubQuestions',
    })
    .compile({ checkpointer: options.checkpointer });
}
