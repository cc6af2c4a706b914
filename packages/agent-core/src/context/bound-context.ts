import { clip, CONTEXT_LIMITS as L } from './context-limits.ts';
import type { NodeContext } from './node-context.ts';

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
    ...context.messages.map((m) => m.content),
    ...context.contextItems.flatMap((i) => [i.title, i.content]),
  ];
  return texts.reduce((sum, text) => sum + text.length, 0);
}

/**
 * Applies rule 3 of `CONTEXT_LIMITS`: while the context is over `MAX_CONTEXT_CHARS`, drop the oldest
 * message (keeping `MIN_MESSAGES_KEPT`), then the oldest context item (keeping one), then squeeze children's
 * conclusions. Returns a new context; the input is not changed.
 */
export function boundContext(input: NodeContext): NodeContext {
  const context: NodeContext = {
    ...input,
    messages: [...input.messages],
    contextItems: [...input.contextItems],
    children: [...input.children],
    omissions: [...input.omissions],
  };
  let dropped = 0;
  while (contextSize(context) > L.MAX_CONTEXT_CHARS && context.messages.length > L.MIN_MESSAGES_KEPT) {
    context.messages.shift();
    dropped += 1;
  }
  if (dropped) context.omissions.push(`${dropped} older messages dropped to fit`);
  dropped = 0;
  while (contextSize(context) > L.MAX_CONTEXT_CHARS && context.contextItems.length > 1) {
    context.contextItems.shift();
    dropped += 1;
  }
  if (dropped) context.omissions.push(`${dropped} older context items dropped to fit`);
  if (contextSize(context) > L.MAX_CONTEXT_CHARS) {
    context.children = context.children.map((c) => ({
      ...c,
      conclusion: c.conclusion === null ? null : clip(c.conclusion, L.SQUEEZED_CONCLUSION_CHARS).text,
    }));
    context.omissions.push("children's conclusions shortened to fit");
  }
  context.conversation = { ...context.conversation, included: context.messages.length };
  return context;
}
