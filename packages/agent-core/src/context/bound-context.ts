import { clip, CONTEXT_LIMITS as L } from './context-limits.ts';
import type { ConversationContext, NodeContext } from './node-context.ts';

/** Characters a context takes in a prompt (the sum of its text fields). */
export function contextSize(context: NodeContext): number {
  const texts = [
    context.map.problem,
    context.map.goal,
    ...context.map.constraints,
    context.node.question,
    context.node.goal,
    ...context.node.constraints,
    ...(context.parent ? [context.parent.question, context.parent.goal, ...context.parent.constraints] : []),
    ...[...context.dependencies, ...context.children].flatMap((n) => [n.question, n.goal, n.conclusion ?? '']),
    ...context.conversations.flatMap((c) => c.messages.map((m) => m.content)),
    ...context.contextItems.flatMap((i) => [i.title, i.content]),
  ];
  return texts.reduce((sum, text) => sum + text.length, 0);
}

/** The conversation whose oldest message is the oldest of all, among those that keep more than the minimum. */
function withOldestDroppable(conversations: ConversationContext[]): ConversationContext | undefined {
  let oldest: ConversationContext | undefined;
  for (const c of conversations) {
    if (c.messages.length <= L.MIN_MESSAGES_KEPT) continue;
    if (!oldest || c.messages[0]!.createdAt < oldest.messages[0]!.createdAt) oldest = c;
  }
  return oldest;
}

/**
 * Applies rule 3 of `CONTEXT_LIMITS`: while the context is over `max` characters (`MAX_CONTEXT_CHARS`),
 * drop the oldest message of its conversations (each keeping `MIN_MESSAGES_KEPT`), then the oldest context
 * item (keeping one), then squeeze children's conclusions. Returns a new context; the input is not changed.
 */
export function boundContext(input: NodeContext, max: number = L.MAX_CONTEXT_CHARS): NodeContext {
  const context: NodeContext = {
    ...input,
    conversations: input.conversations.map((c) => ({ ...c, messages: [...c.messages] })),
    contextItems: [...input.contextItems],
    children: [...input.children],
    omissions: [...input.omissions],
  };
  let dropped = 0;
  for (let c = withOldestDroppable(context.conversations); c && contextSize(context) > max; ) {
    c.messages.shift();
    dropped += 1;
    c = withOldestDroppable(context.conversations);
  }
  if (dropped) context.omissions.push(`${dropped} older messages dropped to fit`);
  dropped = 0;
  while (contextSize(context) > max && context.contextItems.length > 1) {
    context.contextItems.shift();
    dropped += 1;
  }
  if (dropped) context.omissions.push(`${dropped} older context items dropped to fit`);
  if (contextSize(context) > max) {
    context.children = context.children.map((c) => ({
      ...c,
      conclusion: c.conclusion === null ? null : clip(c.conclusion, L.SQUEEZED_CONCLUSION_CHARS).text,
    }));
    context.omissions.push("children's conclusions shortened to fit");
  }
  context.conversations = context.conversations.map((c) => ({
    ...c,
    summary: { ...c.summary, included: c.messages.length },
  }));
  return context;
}
