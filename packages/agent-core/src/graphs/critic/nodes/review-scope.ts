import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import { runRefOf } from '../../shared/run-config.ts';
import type { CriticDeps } from '../critic-deps.ts';
import { CRITIC_GRAPH } from '../critic-graph-name.ts';
import { criticMessages } from '../prompts.ts';
import { CRITIC_REVIEW_READABLE, CriticReviewSchema } from '../schemas.ts';
import type { CriticStateType, CriticUpdate } from '../state.ts';

/** Asks the model to review the scope: its verdict streams, its findings come back as structured output. */
export function reviewScope(deps: CriticDeps) {
  return async (state: CriticStateType, config: LangGraphRunnableConfig): Promise<CriticUpdate> => {
    const scope = state.scope!;
    const root = scope.nodes[0];
    const result = await deps.model.structured({
      agent: 'critic',
      schema: CriticReviewSchema,
      schemaName: 'critic_review',
      readable: CRITIC_REVIEW_READABLE,
      messages: criticMessages(state.language, scope),
      offlineHint: {
        language: state.language,
        question: root?.question ?? scope.map.problem,
        childCount: Math.max(0, scope.nodes.length - 1),
      },
      signal: config.signal,
      onToken: (text) => deps.events.tokensStreamed(runRefOf(config, CRITIC_GRAPH), text),
    });
    return { review: result.value };
  };
}
