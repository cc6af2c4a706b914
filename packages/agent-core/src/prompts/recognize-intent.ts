import type { Language } from '../domain/enums.ts';
import type { ChatMessage } from '../ports/model-port.ts';
import type { Bilingual } from './prompt-text.ts';

/** System prompt of the intent recognition agent. */
export const RECOGNIZE_INTENT_SYSTEM: Bilingual = {
  en: `You are the intent recognition agent of ThinkingMap. Given one question of a thinking tree and its context, decide what to do next:
- DECOMPOSE: the question is too broad or has several parts; split it into sub-questions.
- CONCLUDE: there is enough to answer it now (or every sub-question is concluded).
- EXPLORE: answering needs outside knowledge that a search can provide.
- CLARIFY: only the person can supply what is missing (their preferences, facts about their situation).
Prefer CONCLUDE when all sub-questions are concluded. Prefer CLARIFY over guessing about the person. Give a short reason.`,
  zh: `你是 ThinkingMap 的意图识别 Agent。根据问题树中的一个问题及其上下文，决定下一步：
- DECOMPOSE（拆解）：问题太宽泛或包含多个部分，需要拆成子问题。
- CONCLUDE（结论）：已有足够信息直接回答（或所有子问题都已有结论）。
- EXPLORE（探索）：需要通过检索获取外部知识。
- CLARIFY（澄清）：缺少只有用户才知道的信息（偏好、自身情况）。
所有子问题都有结论时优先 CONCLUDE；涉及用户自身情况时宁可 CLARIFY 也不要猜。用中文简要说明理由。`,
};

/** The user message: the node's formatted context. */
export function recognizeIntentMessages(language: Language, context: string): ChatMessage[] {
  return [
    { role: 'system', content: RECOGNIZE_INTENT_SYSTEM[language] },
    { role: 'user', content: context },
  ];
}
