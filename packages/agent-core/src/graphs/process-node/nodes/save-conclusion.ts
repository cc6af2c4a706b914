import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import type { AgentDeps } from '../../shared/agent-deps.ts';
import { writeKey } from '../../shared/run-config.ts';
import { CHOSEN_BY_PERSON, recordDecision } from '../record-decision.ts';
import type { ProcessNodeStateType, ProcessNodeUpdate } from '../state.ts';

/**
 * Stores the accepted conclusion through the store port, which marks the node COMPLETED, and records its kind
 * as a decision of the run: the model's (with why, and how sure it was), or the person's over the model's.
 */
export function saveConclusion(deps: AgentDeps) {
  return async (state: ProcessNodeStateType, config: LangGraphRunnableConfig): Promise<ProcessNodeUpdate> => {
    const draft = state.draft!;
    // Written with the run's end (this is its last step): the conclusion and the finished run are one change.
    await deps.store.queueConclusion(state.nodeId, {
      text: draft.conclusion,
      kind: draft.kind,
      idempotencyKey: writeKey(config, 'saveConclusion'),
    });
    const person = state.conclusionKind !== null;
    const modelKind = state.modelConclusionKind;
    await recordDecision(
      deps,
      config,
      state.nodeId,
      {
        kind: 'CONCLUSION_KIND',
        choice: { kind: draft.kind },
        reason: person
          ? CHOSEN_BY_PERSON[state.language]
          : (draft.kindReason ?? (draft.keyPoints.join('; ') || draft.conclusion.slice(0, 300))),
        confidence: person ? null : draft.confidence,
        decidedBy: person ? 'PERSON' : 'MODEL',
        overridden: person && modelKind && modelKind !== draft.kind ? { kind: modelKind } : null,
      },
      'saveConclusion',
    );
    return { outcome: 'CONCLUDED' };
  };
}
