import type { DecompositionStrategy, Language } from '../domain/enums.ts';
import type { ChatMessage } from '../ports/model-port.ts';
import type { Bilingual } from './prompt-text.ts';
import { withKnowledge } from './retrieved-knowledge.ts';

/** System prompt of the problem decomposition agent. */
export const PROPOSE_SUB_QUESTIONS_SYSTEM: Bilingual = {
  en: `You are the problem decomposition agent of ThinkingMap. Split the current question into 2 to 6 sub-questions following the chosen strategy.
Each sub-question has a short key (q1, q2, …), a clear question, and a goal (what answering it establishes).
Use dependsOn to list the keys of sibling sub-questions whose conclusions it needs first; no cycles. Together the sub-questions must answer the current question. Do not repeat existing sub-questions.`,
  zh: `你是 ThinkingMap 的问题拆解 Agent。按所选策略把当前问题拆成 2 到 6 个子问题。
每个子问题有简短的 key（q1、q2……）、清晰的问题和目标（回答它能确定什么）。
用 dependsOn 列出它需要先得到结论的同级子问题的 key，不能形成循环。所有子问题合起来必须能回答当前问题。不要重复已有的子问题。用中文回答。`,
};

/** The user message: context, retrieved knowledge (when any), strategy, and the person's feedback on a rejected proposal. */
export function proposeSubQuestionsMessages(
  language: Language,
  context: string,
  strategy: DecompositionStrategy,
  feedback: string | null,
  knowledge = '',
): ChatMessage[] {
  const zh = language === 'zh';
  let content = `${withKnowledge(language, context, knowledge)}\n\n${zh ? '拆解策略' : 'Strategy'}: ${strategy}`;
  if (feedback)
    content += zh
      ? `\n\n用户否决了上一版拆解，意见：${feedback}`
      : `\n\nThe person rejected the previous proposal: ${feedback}`;
  return [
    { role: 'system', content: PROPOSE_SUB_QUESTIONS_SYSTEM[language] },
    { role: 'user', content },
  ];
}
