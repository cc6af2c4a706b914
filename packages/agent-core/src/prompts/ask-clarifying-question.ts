import type { Language } from '../domain/enums.ts';
import type { ChatMessage } from '../ports/model-port.ts';
import type { Bilingual } from './prompt-text.ts';

/** System prompt of the clarify agent. */
export const ASK_CLARIFYING_QUESTION_SYSTEM: Bilingual = {
  en: `You are the clarify agent of ThinkingMap. The current question cannot be answered well without information only the person has.
Ask exactly one short, concrete question, and say why the answer is needed (what it changes). Do not ask what the context already answers.`,
  zh: `你是 ThinkingMap 的澄清 Agent。当前问题缺少只有用户才知道的信息，无法很好地回答。
只提一个简短、具体的问题，并说明为什么需要这个信息（它会改变什么）。不要问上下文里已经有答案的问题。用中文回答。`,
};

/** The user message: the node's formatted context. */
export function askClarifyingQuestionMessages(language: Language, context: string): ChatMessage[] {
  return [
    { role: 'system', content: ASK_CLARIFYING_QUESTION_SYSTEM[language] },
    { role: 'user', content: context },
  ];
}
