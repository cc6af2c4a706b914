import { END, START, StateGraph } from '@langchain/langgraph';
import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import type { AgentDeps } from '../shared/agent-deps.ts';
import { instrumentStep, type Step } from '../shared/instrument-step.ts';
import { StepKind, stepKind } from '../shared/step-kind.ts';
import { askConfirmation } from './nodes/ask-confirmation.ts';
import { createRootNode } from './nodes/create-root-node.ts';
import { restateProblem } from './nodes/restate-problem.ts';
import { UnderstandProblemState, type UnderstandProblemStateType } from './state.ts';
import { UNDERSTAND_PROBLEM_GRAPH } from './understand-problem-graph-name.ts';

export { UNDERSTAND_PROBLEM_GRAPH };

/**
 * Problem understanding: restate the problem, goal and constraints → the person confirms or corrects
 * (looping until confirmed) → record them on the map and create the root node.
 * Input: `{ mapId, problem, title?, goal?, constraints?, language? }` (what the person wrote). Output state has
 * `rootNodeId`.
 */
export function createUnderstandProblemGraph(deps: AgentDeps, options: { checkpointer?: BaseCheckpointSaver } = {}) {
  const step = <U>(name: string, fn: Step<UnderstandProblemStateType, U>) =>
    instrumentStep(UNDERSTAND_PROBLEM_GRAPH, name, deps.events, fn);
  return new StateGraph(UnderstandProblemState)
    .addNode('restateProblem', step('restateProblem', restateProblem(deps)), stepKind(StepKind.AGENT))
    .addNode('askConfirmation', step('askConfirmation', askConfirmation()), stepKind(StepKind.HUMAN))
    .addNode('createRootNode', step('createRootNode', createRootNode(deps)), stepKind(StepKind.TOOL))
    .addEdge(START, 'restateProblem')
    .addEdge('restateProblem', 'askConfirmation')
    .addConditionalEdges('askConfirmation', (state) => (state.confirmed ? 'confirmed' : 'corrected'), {
      confirmed: 'createRootNode',
      corrected: 'restateProblem',
    })
    .addEdge('createRootNode', END)
    .compile({ checkpointer: options.checkpointer });
}
