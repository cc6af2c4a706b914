import type { Language } from '../domain/enums.ts';
import type { KnowledgeTool } from '../ports/knowledge-port.ts';
import type { ChatMessage } from '../ports/model-port.ts';
import type { Bilingual } from './prompt-text.ts';

/** The agents that may choose a knowledge tool: the one exploring, and the two that gather before working. */
export type ToolChoosingAgent = 'explore' | 'decompose' | 'conclude';

const ROLE: Record<ToolChoosingAgent, Bilingual> = {
  explore: { en: 'the explore agent', zh: '探索 Agent' },
  decompose: {
    en: 'the decomposition agent (about to propose sub-questions)',
    zh: '拆解 Agent（即将提出子问题）',
  },
  conclude: { en: 'the conclusion agent (about to draft a conclusion)', zh: '结论 Agent（即将起草结论）' },
};

/** System prompt of an agent choosing one knowledge tool beyond search, for `agent`'s role. */
export function chooseToolSystem(language: Language, agent: ToolChoosingAgent = 'explore'): string {
  const role = ROLE[agent][language];
  return language === 'zh'
    ? `你是 ThinkingMap 的${role}。已经为当前问题做过一次知识检索；下面的工具还能获取更多信息（domain_knowledge 按领域 domain 和可选主题 topic 给出领域知识）。
最多选择一个其结果有助于回答当前问题的工具，并按它的输入 schema 给出参数。如果没有工具有帮助，tool 填 null、arguments 为空对象。用一句话说明理由，用中文回答。`
    : `You are ${role} of ThinkingMap. A knowledge search for the current question has been made; the tools below can fetch more (domain_knowledge gives the knowledge of a field, by domain and optional topic).
Choose at most one tool whose answer would help answer the current question, and give its arguments following its input schema. If none would help, answer with tool null and empty arguments. Say why in one sentence.`;
}

/** The user message: the node's context and every tool with its description and input schema. */
export function chooseToolMessages(
  language: Language,
  context: string,
  tools: KnowledgeTool[],
  agent: ToolChoosingAgent = 'explore',
): ChatMessage[] {
  const list = tools
    .map((tool) => `- ${tool.id}: ${tool.description}\n  input schema: ${JSON.stringify(tool.inputSchema)}`)
    .join('\n');
  return [
    { role: 'system', content: chooseToolSystem(language, agent) },
    { role: 'user', content: `${context}\n\n${language === 'zh' ? '可用工具' : 'Tools'}:\n${list}` },
  ];
}
