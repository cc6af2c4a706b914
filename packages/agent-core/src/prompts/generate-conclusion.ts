import type { ConclusionKind, Language } from '../domain/enums.ts';
import type { ChatMessage } from '../ports/model-port.ts';
import type { Bilingual } from './prompt-text.ts';
import { withKnowledge } from './retrieved-knowledge.ts';

/** System prompt of the conclusion generation agent. */
export const GENERATE_CONCLUSION_SYSTEM: Bilingual = {
  en: `You are the conclusion generation agent of ThinkingMap. Answer the current question from its context: the sub-questions' conclusions, the dependencies' conclusions, retrieved knowledge and the conversation.
Choose the kind: ANALYTICAL (explains what is true and why), CREATIVE (proposes new ideas), DECISION (recommends one option with the trade-offs), LEARNING (what to learn and how).
Be concrete, cite which sub-conclusions you rely on, say what remains uncertain, and list the key points.`,
  zh: `你是 ThinkingMap 的结论生成 Agent。根据上下文回答当前问题：子问题的结论、依赖问题的结论、检索到的知识和对话。
选择结论类型：ANALYTICAL（分析：说明事实及原因）、CREATIVE（创意：提出新想法）、DECISION（决策：推荐一个选项并说明取舍）、LEARNING（学习：学什么、怎么学）。
要具体，说明依据了哪些子结论，指出仍不确定的地方，并列出要点。用中文回答。`,
};

/**
 * The user message: context, retrieved knowledge (bounded snippets, when any), the kind the person asked for,
 * and their feedback on the previous draft (or, with no previous draft, what they ask for: a fork of a first draft).
 */
export function generateConclusionMessages(
  language: Language,
  context: string,
  kind: ConclusionKind | null,
  previous: string | null,
  feedback: string | null,
  knowledge = '',
): ChatMessage[] {
  const zh = language === 'zh';
  let content = withKnowledge(language, context, knowledge);
  if (kind) content += zh ? `\n\n用户要求的结论类型：${kind}` : `\n\nThe person asked for a ${kind} conclusion.`;
  if (previous && feedback)
    content += zh
      ? `\n\n上一版结论：\n${previous}\n\n用户的反馈：\n${feedback}`
      : `\n\nPrevious draft:\n${previous}\n\nThe person's feedback:\n${feedback}`;
  // A fork of a first draft: the person's feedback comes before any draft of this run.
  else if (feedback) content += zh ? `\n\n用户的要求：\n${feedback}` : `\n\nWhat the person asks for:\n${feedback}`;
  return [
    { role: 'system', content: GENERATE_CONCLUSION_SYSTEM[language] },
    { role: 'user', content },
  ];
}
