import type { Language } from '../domain/enums.ts';
import type { ChatMessage } from '../ports/model-port.ts';
import type { Understanding } from '../schemas/understanding.ts';
import type { Bilingual } from './prompt-text.ts';

/** System prompt of the problem understanding agent. */
export const UNDERSTAND_PROBLEM_SYSTEM: Bilingual = {
  en: `You are the problem understanding agent of ThinkingMap, a tool where a person thinks through a problem as a tree of questions.
Restate the person's problem precisely in their own terms, state the goal a good answer reaches, and list the constraints it must respect (only those the person stated or clearly implied; do not invent any).
Keep the title, goal and constraints the person gave: restate them, never drop them; fill in only what they left empty.
If the person corrected an earlier restatement, apply the correction to the field it concerns (the goal, a constraint, the problem, the title) and change nothing else. Write in English.`,
  zh: `你是 ThinkingMap 的问题理解 Agent。ThinkingMap 让人把一个问题拆成问题树来思考。
请用用户自己的说法准确复述问题，说明一个好答案要达成的目标，并列出必须遵守的约束（只列用户说过或明显隐含的，不要编造）。
保留用户给出的标题、目标和约束：复述它们，不要丢掉；只补充用户没写的部分。
如果用户更正了之前的复述，请把更正落实到它所指的字段（目标、某条约束、问题、标题），其余保持不变。用中文回答。`,
};

/** What the person wrote when creating the map: the problem, and the title, goal and constraints if given. */
export type GivenProblem = Pick<Understanding, 'title' | 'problem' | 'goal' | 'constraints'>;

/**
 * The user message: the problem with what else the person gave (title, goal, constraints), plus the previous
 * restatement and the person's correction when looping.
 */
export function understandProblemMessages(
  language: Language,
  given: GivenProblem,
  previous: Understanding | null,
  correction: string | null,
): ChatMessage[] {
  const zh = language === 'zh';
  let content = zh ? `问题：\n${given.problem}` : `Problem:\n${given.problem}`;
  if (given.title.trim())
    content += zh ? `\n\n用户给的标题：${given.title}` : `\n\nTitle the person gave: ${given.title}`;
  if (given.goal.trim()) content += zh ? `\n\n用户给的目标：${given.goal}` : `\n\nGoal the person gave: ${given.goal}`;
  if (given.constraints.length) {
    const lines = given.constraints.map((c) => `- ${c}`).join('\n');
    content += zh ? `\n\n用户给的约束：\n${lines}` : `\n\nConstraints the person gave:\n${lines}`;
  }
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
