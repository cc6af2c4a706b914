import type { Language } from '../domain/enums.ts';
import type { KnowledgeTool } from '../ports/knowledge-port.ts';
import type { ChatMessage } from '../ports/model-port.ts';
import type { Bilingual } from './prompt-text.ts';

/** System prompt of the explore agent when knowledge sources offer tools beyond search. */
export const CHOOSE_TOOL_SYSTEM: Bilingual = {
  en: `You are the explore agent of ThinkingMap. A knowledge search for the current question has been made; the tools below can fetch more.
Choose at most one tool whose answer would help answer the current question, and give its arguments following its input schema. If none would help, answer with tool null and empty arguments. Say why in one sentence.`,
  zh: `你是 ThinkingMap 的探索 Agent。已经为当前问题做过一次知识检索；下面的工具还能获取更多信息。
最多选择一个其结果有助于回答当前问题的工具，并按它的输入 schema 给出参数。如果没有工具有帮助，tool 填 null、arguments 为空对象。用一句话说明理由，用中文回答。`,
};

/** The user message: the node's context and every tool with its description and input schema. */
export function chooseToolMessages(language: Language, context: string, tools: KnowledgeTool[]): ChatMessage[] {
  const list = tools
    .map((tool) => `- ${tool.id}: ${tool.description}\n  input schema: ${JSON.stringify(tool.inputSchema)}`)
    .join('\n');
  return [
    { role: 'system', content: CHOOSE_TOOL_SYSTEM[language] },
    { role: 'user', content: `${context}\n\n${language === 'zh' ? '可用工具' : 'Tools'}:\n${list}` },
  ];
}
