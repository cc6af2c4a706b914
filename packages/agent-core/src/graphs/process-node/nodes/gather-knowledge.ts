import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import type { AgentDeps } from '../../shared/agent-deps.ts';
import { writeKey } from '../../shared/run-config.ts';
import { knowledgeSnippets, resultContent, searchOrNotice } from '../knowledge-snippets.ts';
import { knowledgeStepOf } from '../knowledge-step.ts';
import type { ProcessNodeStateType, ProcessNodeUpdate } from '../state.ts';

const UNAVAILABLE = {
  en: 'A knowledge source gave nothing; going on without it.',
  zh: '有知识来源没有结果，继续进行。',
};

/**
 * Searches knowledge once for the node before the decompose or conclude agent works on it: posts each result
 * as a RAG message with its sources in that agent's conversation, a notice per source that was down or
 * slow, and hands the agent the snippets (bounded) for its prompt. Only routed to when a port is configured;
 * when the port offers other tools (`domain_knowledge` among them), `callChosenTool` follows.
 */
export function gatherKnowledge(deps: AgentDeps) {
  return async (state: ProcessNodeStateType, config: LangGraphRunnableConfig): Promise<ProcessNodeUpdate> => {
    const knowledge = deps.knowledge;
    if (!knowledge) return {};
    const { conversation } = knowledgeStepOf(state);
    const facts = state.facts!;
    const answer = await searchOrNotice(knowledge, `${facts.question} ${facts.goal}`.trim(), {
      context: state.contextText.slice(0, 2000),
      maxResults: 5,
      signal: config.signal,
    });
    const post = (kind: 'RAG' | 'NOTICE', i: number, content: string, extra: Record<string, unknown> = {}) =>
      deps.store.postMessage({
        nodeId: state.nodeId,
        conversation,
        role: 'SYSTEM',
        kind,
        content,
        idempotencyKey: writeKey(config, 'gatherKnowledge', conversation, kind, i),
        ...extra,
      });
    for (const [i, notice] of answer.notices.entries())
      await post('NOTICE', i, `${UNAVAILABLE[state.language]} (${knowledge.name}: ${notice.message})`);
    for (const [i, result] of answer.results.entries())
      await post('RAG', i, resultContent(result), {
        sources: result.sources,
        metadata: { score: result.score, source: knowledge.name },
      });
    return { knowledgeResults: answer.results, knowledgeText: knowledgeSnippets(answer.results) };
  };
}
