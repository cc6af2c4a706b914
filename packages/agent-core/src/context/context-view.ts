import type { ConversationKind } from '../domain/enums.ts';
import { boundContext } from './bound-context.ts';
import type { NodeContext } from './node-context.ts';

/** What a view leaves out of the conversations it shows. */
export interface ViewOptions {
  /**
   * Retrieved passages the prompt already carries in its own knowledge section: a RAG message with one of
   * these texts is not shown again in the conversation, so no passage reaches a model twice.
   */
  knownPassages?: readonly string[];
}

/**
 * One agent's view of a node's context: the `conversations` it reads, in that order (its own first), bounded
 * as a whole by `CONTEXT_LIMITS`. Counts in each conversation's summary stay those of the whole conversation.
 */
export function contextView(
  context: NodeContext,
  conversations: readonly ConversationKind[],
  options: ViewOptions = {},
): NodeContext {
  const known = new Set(options.knownPassages ?? []);
  return boundContext({
    ...context,
    conversations: conversations
      .flatMap((kind) => context.conversations.filter((c) => c.summary.kind === kind))
      .map((c) => ({
        ...c,
        messages: known.size ? c.messages.filter((m) => m.kind !== 'RAG' || !known.has(m.content)) : c.messages,
      })),
  });
}
