import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import type { ConversationKind } from '../../domain/enums.ts';
import type { KnowledgePort, KnowledgeResult, KnowledgeSearchAnswer } from '../../ports/knowledge-port.ts';
import type { PostMessageInput, StorePort } from '../../ports/store-port.ts';
import { contextFor, type NodeAgent } from './agent-context.ts';
import { knowledgeKey, resultContent, searchOrNotice } from './knowledge-snippets.ts';
import type { ProcessNodeStateType } from './state.ts';

/** Posts one knowledge message (the `i`-th of its kind in this step): a retrieved result or a notice. */
export type PostKnowledge = (
  kind: 'RAG' | 'NOTICE',
  i: number,
  content: string,
  extra?: Pick<PostMessageInput, 'sources' | 'metadata'>,
) => Promise<unknown>;

/**
 * A {@link PostKnowledge} writing SYSTEM messages in one of a node's conversations, each with its own
 * idempotency key (`keyOf(kind, i)`), so a step LangGraph re-runs after a resume posts nothing twice.
 */
export function knowledgePoster(
  store: StorePort,
  where: { nodeId: string; conversation: ConversationKind },
  keyOf: (kind: 'RAG' | 'NOTICE', i: number) => string,
): PostKnowledge {
  return (kind, i, content, extra = {}) =>
    store.postMessage({ ...where, role: 'SYSTEM', kind, content, idempotencyKey: keyOf(kind, i), ...extra });
}

/** Where search results are posted, and the passages this run already posted (`knowledgePosted` keys). */
export interface PostingPlace {
  conversation: ConversationKind;
  posted: readonly string[];
}

/**
 * Posts each search result as a RAG message with its sources, its score and the port it came from, except
 * the passages this run already posted in the same conversation: a passage that a later search or tool of
 * the run finds again (exploring then gathering for a conclusion, a tool answering what the search found) is
 * posted once. Returns the run's posted keys so far and how many passages were new.
 */
export async function postSearchResults(
  post: PostKnowledge,
  results: KnowledgeResult[],
  source: string,
  place: PostingPlace,
): Promise<{ knowledgePosted: string[]; fresh: number }> {
  const seen = new Set(place.posted);
  let fresh = 0;
  for (const [i, result] of results.entries()) {
    const key = `${place.conversation}:${knowledgeKey(result)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    fresh += 1;
    await post('RAG', i, resultContent(result), { sources: result.sources, metadata: { score: result.score, source } });
  }
  return { knowledgePosted: [...seen], fresh };
}

/**
 * Searches knowledge for the node's question and goal, with the start of the context of the agent it searches
 * for; never throws for a source that is down.
 */
export function searchNodeKnowledge(
  knowledge: KnowledgePort,
  state: ProcessNodeStateType,
  agent: NodeAgent,
  config: LangGraphRunnableConfig,
): Promise<KnowledgeSearchAnswer> {
  const facts = state.facts!;
  return searchOrNotice(knowledge, `${facts.question} ${facts.goal}`.trim(), {
    context: contextFor(state, agent).slice(0, 2000),
    maxResults: 5,
    signal: config.signal,
  });
}
