import { summarizeConversation } from '../conversation/summarize-conversation.ts';
import type { NodeContext, RelatedNode } from './node-context.ts';

const LABELS = {
  en: {
    problem: 'Problem of the map',
    node: 'Current question',
    goal: 'Goal',
    constraints: 'Constraints',
    parent: 'Parent question',
    deps: 'Sibling questions this one depends on',
    children: 'Sub-questions',
    conclusion: 'Conclusion',
    none: '(none)',
    open: '(not concluded yet)',
    conversation: {
      DECOMPOSE: 'Conversation about splitting this question',
      CONCLUDE: 'Conversation about its conclusion',
    },
    context: 'Context the person added',
    omitted: 'Left out to fit',
  },
  zh: {
    problem: '导图的问题',
    node: '当前问题',
    goal: '目标',
    constraints: '约束',
    parent: '父问题',
    deps: '当前问题依赖的同级问题',
    children: '子问题',
    conclusion: '结论',
    none: '（无）',
    open: '（尚无结论）',
    conversation: { DECOMPOSE: '关于拆解这个问题的对话', CONCLUDE: '关于它的结论的对话' },
    context: '用户补充的上下文',
    omitted: '为控制长度而省略',
  },
} as const;

/**
 * Renders a {@link NodeContext} as the text block prompts embed, in the map's language. Sections appear
 * in a fixed order, each conversation the context holds under its own heading; empty sections say so, so
 * the model does not guess.
 */
export function formatNodeContext(context: NodeContext): string {
  const t = LABELS[context.language];
  const list = (items: string[]) => (items.length ? items.map((i) => `- ${i}`).join('\n') : t.none);
  const related = (nodes: RelatedNode[]) =>
    nodes.length
      ? nodes
          .map((n) => `- ${n.question}\n  ${t.goal}: ${n.goal || t.none}\n  ${t.conclusion}: ${n.conclusion ?? t.open}`)
          .join('\n')
      : t.none;
  const sections = [
    `## ${t.problem}\n${context.map.problem}\n${t.goal}: ${context.map.goal || t.none}`,
    `## ${t.node}\n${context.node.question}\n${t.goal}: ${context.node.goal || t.none}\n${t.constraints}:\n${list(context.node.constraints)}`,
    `## ${t.parent}\n${context.parent ? `${context.parent.question}\n${t.goal}: ${context.parent.goal || t.none}\n${t.constraints}:\n${list(context.parent.constraints)}` : t.none}`,
    `## ${t.deps}\n${related(context.dependencies)}`,
    `## ${t.children}\n${related(context.children)}`,
    ...context.conversations.map(
      (c) =>
        `## ${t.conversation[c.summary.kind]}\n${summarizeConversation(c.summary, context.language)}${c.messages.map((m) => `\n[${m.role}${m.kind === 'TEXT' ? '' : `/${m.kind}`}] ${m.content}`).join('')}`,
    ),
    `## ${t.context}\n${context.contextItems.length ? context.contextItems.map((i) => `- ${i.title ? `${i.title}: ` : ''}${i.content}`).join('\n') : t.none}`,
  ];
  if (context.omissions.length) sections.push(`## ${t.omitted}\n${list(context.omissions)}`);
  return sections.join('\n\n');
}
