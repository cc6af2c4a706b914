import type { Language } from '../../domain/enums.ts';
import type { CriticScope } from '../../ports/critic-store-port.ts';
import type { ChatMessage } from '../../ports/model-port.ts';
import type { Bilingual } from '../../prompts/prompt-text.ts';
import { standingDismissals } from './dismissals.ts';
import type { SuggestedChange } from './schemas.ts';

/** System prompt of the critic. */
export const CRITIC_SYSTEM: Bilingual = {
  en: `You are the critic of ThinkingMap. Review the thinking map below (a tree of questions, some with conclusions) and report only real problems, at most 10:
- GAP: something the question needs is not asked by any sub-question;
- OVERLAP: two sub-questions ask the same thing;
- CONTRADICTION: two conclusions contradict each other;
- UNSUPPORTED: a conclusion claims what nothing under or around it supports.
For each finding give the keys of the nodes it concerns (n1, n2, …), an explanation, and one concrete change as one command:
ADD_SUB_QUESTION (node = the parent, question, goal), EDIT_QUESTION (node, question, goal or null), REDO_CONCLUSION (node = a concluded node), ADD_DEPENDENCY (node depends on dependsOn, both siblings).
Unused fields are null. Do not report again a finding the person dismissed (listed after the map, if any). If the map holds up, return no findings.`,
  zh: `你是 ThinkingMap 的审阅者（critic）。审阅下面的思维导图（一棵问题树，部分问题已有结论），只报告真实存在的问题，最多 10 条：
- GAP：问题需要的内容没有任何子问题涉及；
- OVERLAP：两个子问题问的是同一件事；
- CONTRADICTION：两个结论互相矛盾；
- UNSUPPORTED：结论的说法没有下层或周围内容支持。
每条发现给出相关节点的 key（n1、n2……）、说明，以及一个具体修改，用一个命令表示：
ADD_SUB_QUESTION（node = 父节点，question，goal）、EDIT_QUESTION（node，question，goal 或 null）、REDO_CONCLUSION（node = 已有结论的节点）、ADD_DEPENDENCY（node 依赖 dependsOn，二者为同级）。
不用的字段为 null。用户已驳回的发现（如有，列在导图之后）不要再报告。导图没有问题时不返回发现。用中文回答。`,
};

/** The key the prompt gives the node at `index` of the scope (n1, n2, …); the model names nodes by it. */
export const nodeKey = (index: number): string => `n${index + 1}`;

/** The scope as the model reads it: one line per node, indented by depth, then the dependencies. */
export function describeScope(language: Language, scope: CriticScope): string {
  const zh = language === 'zh';
  const keys = new Map(scope.nodes.map((n, i) => [n.id, nodeKey(i)]));
  const depth = new Map<string, number>();
  const lines = scope.nodes.map((node) => {
    const level = node.parentId && depth.has(node.parentId) ? depth.get(node.parentId)! + 1 : 0;
    depth.set(node.id, level);
    let line = `${'  '.repeat(level)}[${keys.get(node.id)}] ${node.question}`;
    if (node.goal) line += zh ? `（目标：${node.goal}）` : ` (goal: ${node.goal})`;
    if (node.conclusion)
      line += zh
        ? `\n${'  '.repeat(level)}  结论：${node.conclusion}`
        : `\n${'  '.repeat(level)}  Conclusion: ${node.conclusion}`;
    return line;
  });
  const edges = scope.dependencies
    .filter((d) => keys.has(d.nodeId) && keys.has(d.dependsOnId))
    .map((d) => `${keys.get(d.nodeId)} → ${keys.get(d.dependsOnId)}`);
  const head = zh
    ? `问题：${scope.map.problem || scope.map.title}`
    : `Problem: ${scope.map.problem || scope.map.title}`;
  const goal = scope.map.goal ? (zh ? `\n目标：${scope.map.goal}` : `\nGoal: ${scope.map.goal}`) : '';
  const deps = edges.length ? `\n\n${zh ? '依赖' : 'Dependencies'}:\n${edges.join('\n')}` : '';
  return `${head}${goal}\n\n${zh ? '思维导图' : 'Thinking map'}:\n${lines.join('\n')}${deps}`;
}

/** A proposed change in one line, naming nodes by their keys. */
function describeChange(change: SuggestedChange, key: (id: string) => string): string {
  switch (change.command) {
    case 'ADD_SUB_QUESTION':
      return `${change.command} ${key(change.parentId)} "${change.question}"`;
    case 'EDIT_QUESTION':
      return `${change.command} ${key(change.nodeId)} "${change.question}"`;
    case 'REDO_CONCLUSION':
      return `${change.command} ${key(change.nodeId)}`;
    case 'ADD_DEPENDENCY':
      return `${change.command} ${key(change.nodeId)} → ${key(change.dependsOnId)}`;
  }
}

/**
 * The findings the person dismissed that still stand (nothing they concern changed since), one per line with
 * the nodes' keys, so the critic knows what not to report again; empty when there are none.
 */
export function describeDismissals(language: Language, scope: CriticScope): string {
  const dismissed = standingDismissals(scope);
  if (dismissed.length === 0) return '';
  const keys = new Map(scope.nodes.map((n, i) => [n.id, nodeKey(i)]));
  const key = (id: string) => keys.get(id) ?? '?';
  const lines = dismissed.map(
    (d) => `- [${d.kind}] ${d.nodeIds.map(key).join(', ')}: ${d.explanation} (${describeChange(d.change, key)})`,
  );
  const head =
    language === 'zh'
      ? '用户已驳回的发现（相关节点此后没有变化，不要再报告）'
      : 'Findings the person dismissed (nothing they concern changed since; do not report them again)';
  return `${head}:\n${lines.join('\n')}`;
}

/** The critic's messages for a scope: the map, then what the person dismissed. */
export function criticMessages(language: Language, scope: CriticScope): ChatMessage[] {
  const dismissals = describeDismissals(language, scope);
  return [
    { role: 'system', content: CRITIC_SYSTEM[language] },
    { role: 'user', content: [describeScope(language, scope), dismissals].filter(Boolean).join('\n\n') },
  ];
}
