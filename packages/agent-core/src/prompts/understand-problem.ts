import type { Language } from '../domain/enums.ts';
import type { ChatMessage } from '../ports/model-port.ts';
import type { Understanding } from '../schemas/understanding.ts';
import type { Bilingual } from './prompt-text.ts';

/** System prompt of the problem understanding agent. */
export const UNDERSTAND_PROBLEM_SYSTEM: Bilingual = {
  en: `You are the problem understanding agent of ThinkingMap, a tool where a person thinks through a problem as a tree of questions.
Restate the person's problem precisely in their own terms, state the goal a good answer reaches, and list the constraints it must respect (only those the person stated or clearly implied; do not invent any).
If the person corrected an earlier restatement, apply the correction faithfully and change nothing else. Write in English.`,
  zh: `你是 ThinkingMap 的问题理解 Agent。ThinkingMap 让人把一个问题拆成问题树来思考。
请用用户自己的说法准确复述问题，说明一个好答案要达成的目标，并列出必须遵守的约束（只列用户说过或明显隐含的，不要编造）。
如果用户更正了之前的复述，请忠实地采纳更正，其余保持不变。用中文回答。`,
};

/** The user message: the problem, plus the previous restatement and the person's correction when looping. */
export function understandProblemMessages(
  language: Language,
  problem: string,
  previous: Understanding | null,
  correction: string | null,
): ChatMessage[] {
  const zh = language === 'zh';
  let content = zh ? `问题：\n${problem}` : `Problem:\n${problem}`;
  if (previous && correction) {
    content += zh
      ? `\n\n之前的复述：\n${JSON.stringify(previous, null, 2)}\n\n用户的更正：\n${correction}`
      : `\n\nPrevious restatement:\n${JSON.stringify(previous, null, 2)}\n\nThe person's correction:\n${correction}`;
  }
  return [
    { role: 'system', content: UNDERSTAND_PROBLEM_SYSTEM[language] },
    { role: 'user', content },
  ];
}
