import { END, START, StateGraph } from '@langchain/langgraph';
import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import { instrumentStep, type Step } from '../shared/instrument-step.ts';
import { StepKind, stepKind } from '../shared/step-kind.ts';
import type { CriticDeps } from './critic-deps.ts';
import { CRITIC_GRAPH } from './critic-graph-name.ts';
import { postSuggestions } from './nodes/post-suggestions.ts';
import { readScope } from './nodes/read-scope.ts';
import { reviewScope } from './nodes/review-scope.ts';
import { CriticState, type CriticStateType } from './state.ts';

export { CRITIC_GRAPH };

/**
 * The critic, on request: read the map (or the subtree under a node) → the model reviews it for gaps,
 * overlapping sub-questions, contradicting conclusions and unsupported claims → post each finding as a
 * suggestion the person accepts or dismisses (nothing is posted when it found nothing). It never changes the
 * map itself: an accepted suggestion is applied by the person's command.
 * Input: `{ mapId, scopeNodeId? }`. Output state has `suggestionIds`.
 */
export function createCriticGraph(deps: CriticDeps, options: { checkpointer?: BaseCheckpointSaver } = {}) {
  const step = <U>(name: string, fn: Step<CriticStateType, U>) => instrumentStep(CRITIC_GRAPH, name, deps.events, fn);
  return new StateGraph(CriticState)
    .addNode('readScope', step('readScope', readScope(deps)), stepKind(StepKind.TOOL))
    .addNode('reviewScope', step('reviewScope', reviewScope(deps)), stepKind(StepKind.AGENT))
    .addNode('postSuggestions', step('postSuggestions', postSuggestions(deps)), stepKind(StepKind.TOOL))
    .addEdge(START, 'readScope')
    .addEdge('readScope', 'reviewScope')
    .addConditionalEdges('reviewScope', (state) => (state.review?.findings.length ? 'found' : 'nothing'), {
      found: 'postSuggestions',
      nothing: END,
    })
    .addEdge('postSuggestions', END)
    .compile({ checkpointer: options.checkpointer });
}
