import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import { generateConclusionMessages } from '../../../prompts/generate-conclusion.ts';
import { CONCLUSION_DRAFT_READABLE, ConclusionDraftSchema } from '../../../schemas/conclusion-draft.ts';
import type { AgentDeps } from '../../shared/agent-deps.ts';
import { runRefOf, writeKey } from '../../shared/run-config.ts';
import { contextFor } from '../agent-context.ts';
import { offlineHintOf } from '../offline-hint.ts';
import { PROCESS_NODE_GRAPH } from '../process-node-graph-name.ts';
import type { ProcessNodeStateType, ProcessNodeUpdate } from '../state.ts';

/**
 * Drafts an ANALYTICAL, CREATIVE, DECISION or LEARNING conclusion (the person's kind wins), streaming its
 * text as tokens, posts it in the conclude conversation and marks the node WAITING for feedback.
 */
export function draftConclusion(deps: AgentDeps) {
  return async (state: ProcessNodeStateType, config: LangGraphRunnableConfig): Promise<ProcessNodeUpdate> => {
    const run = runRefOf(config, PROCESS_NODE_GRAPH, state.nodeId);
    const result = await deps.model.structured({
      agent: 'conclude',
      schema: ConclusionDraftSchema,
      schemaName: 'conclusion_draft',
      readable: CONCLUSION_DRAFT_READABLE,
      messages: generateConclusionMessages(
        state.language,
        contextFor(state, 'conclude'),
        state.conclusionKind,
        state.draft?.conclusion ?? null,
        state.conclusionFeedback,
        state.knowledgeText,
      ),
      offlineHint: offlineHintOf(state, state.conclusionFeedback),
      signal: config.signal,
      onToken: (text) => deps.events.tokensStreamed(run, text),
    });
    const draft = state.conclusionKind ? { ...result.value, kind: state.conclusionKind } : result.value;
    const round = state.draftRound + 1;
    // Written with the question that follows (the run pauses on it): the draft and its question are one change.
    await deps.store.queueMessage({
      nodeId: state.nodeId,
      conversation: 'CONCLUDE',
      role: 'ASSISTANT',
      kind: 'TEXT',
      content: draft.conclusion,
      metadata: { draft, round, offline: deps.model.offline },
      idempotencyKey: writeKey(config, 'draftConclusion', round),
    });
    await deps.store.setNodeStatus(state.nodeId, 'WAITING');
    return { draft, draftRound: round, conclusionFeedback: null, modelConclusionKind: result.value.kind };
  };
}
