import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import { proposeSubQuestionsMessages } from '../../../prompts/propose-sub-questions.ts';
import { SUB_QUESTION_PROPOSAL_READABLE, SubQuestionProposalSchema } from '../../../schemas/sub-question-proposal.ts';
import type { AgentDeps } from '../../shared/agent-deps.ts';
import { runRefOf, writeKey } from '../../shared/run-config.ts';
import { contextFor } from '../agent-context.ts';
import { offlineHintOf } from '../offline-hint.ts';
import { PROCESS_NODE_GRAPH } from '../process-node-graph-name.ts';
import { recordStrategy } from '../record-decision.ts';
import type { ProcessNodeStateType, ProcessNodeUpdate } from '../state.ts';
import { personalStrategy } from './decide-strategy.ts';

/**
 * Proposes sub-questions with goals and sibling dependencies, posts the proposal in the node's decompose
 * conversation and marks the node WAITING. No node is created here: the person reviews first. A strategy
 * the person chose at review (rejecting a proposal) is recorded as their decision over the one it replaces.
 */
export function proposeSubQuestions(deps: AgentDeps) {
  return async (state: ProcessNodeStateType, config: LangGraphRunnableConfig): Promise<ProcessNodeUpdate> => {
    const run = runRefOf(config, PROCESS_NODE_GRAPH, state.nodeId);
    const strategy = state.strategyOverride ?? state.strategy?.strategy ?? 'PARALLEL';
    const chosen = state.strategyOverride && state.strategyOverride !== state.strategy?.strategy;
    const personal = chosen ? personalStrategy(state) : null;
    if (personal) {
      await recordStrategy(
        deps,
        config,
        state.nodeId,
        { strategy: personal, decidedBy: 'PERSON', overridden: state.strategy },
        'proposeSubQuestions',
        state.proposalRound + 1,
        'strategy',
      );
    }
    // A proposal made elsewhere (a consultation's planner) is the first one the person reviews; no model call.
    const given = state.proposalRound === 0 ? state.proposalOverride : null;
    const result = given
      ? { value: given }
      : await deps.model.structured({
          agent: 'decompose',
          schema: SubQuestionProposalSchema,
          schemaName: 'sub_question_proposal',
          readable: SUB_QUESTION_PROPOSAL_READABLE,
          messages: proposeSubQuestionsMessages(
            state.language,
            contextFor(state, 'decompose'),
            strategy,
            state.proposalFeedback,
            state.knowledgeText,
          ),
          offlineHint: offlineHintOf(state, state.proposalFeedback),
          signal: config.signal,
          onToken: (text) => deps.events.tokensStreamed(run, text),
        });
    const round = state.proposalRound + 1;
    const lines = result.value.subQuestions.map(
      (q) => `${q.key}. ${q.question}${q.dependsOn.length ? ` (← ${q.dependsOn.join(', ')})` : ''}`,
    );
    await deps.store.postMessage({
      nodeId: state.nodeId,
      conversation: 'DECOMPOSE',
      role: 'ASSISTANT',
      kind: 'TEXT',
      content: `${result.value.rationale}\n${lines.join('\n')}`,
      metadata: { proposal: result.value, strategy, round },
      idempotencyKey: writeKey(config, 'proposeSubQuestions', round),
    });
    await deps.store.setNodeStatus(state.nodeId, 'WAITING');
    return {
      proposal: result.value,
      proposedSubQuestions: result.value.subQuestions,
      proposalRound: round,
      proposalFeedback: null,
      proposalOverride: null,
      ...(personal ? { strategy: personal } : {}),
    };
  };
}
