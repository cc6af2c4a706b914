import type { Language } from '../domain/enums.ts';
import { CONSULTATION_LIMITS } from '../graphs/consultation/consultation-deps.ts';
import type { ConsultationStateType } from '../graphs/consultation/state.ts';
import type { ConsultationMessage } from '../ports/consultation-store-port.ts';
import type { ChatMessage } from '../ports/model-port.ts';
import type { Bilingual } from './prompt-text.ts';

/** System prompt of the front agent: it answers the person at once. */
export const CONSULTATION_FRONT_SYSTEM: Bilingual = {
  en: `You are the front agent of a ThinkingMap consultation. You talk with the person directly and answer at once, briefly and warmly; a planner works behind you, keeps the plan and writes records and notes.
Answer the person's latest message. Use the plan and what is known; do not invent facts. When the plan has an open question for the person, you may ask it.
Then choose the route: "plan" when the message carries something to work on (a need, a fact, a decision, a change of course), "chat" for small talk, "end" when the person ends the consultation. Write in English.`,
  zh: `你是 ThinkingMap 咨询中的前台 Agent。你直接和用户对话，立即作答，简短而友好；一个规划 Agent 在你身后维护计划、写记录和笔记。
请回答用户最新的消息。利用计划和已知信息，不要编造事实。计划里有需要问用户的问题时，你可以顺带提问。
然后选择去向："plan"：消息里有需要处理的内容（需求、事实、决定、改变方向）；"chat"：闲聊；"end"：用户结束咨询。用中文回答。`,
};

/** System prompt of the planner: it keeps the plan and decides the next move. */
export const CONSULTATION_PLANNER_SYSTEM: Bilingual = {
  en: `You are the planner of a ThinkingMap consultation. You do not talk to the person; a front agent does. You break the person's problem into consultation steps, keep the plan and the facts, and decide the next move:
"front" to ask the person something (put the question in askUser), "db_writer" to keep a record (kind FACT, REQUIREMENT, DECISION or OPEN_QUESTION, with the id of the message it comes from), "note_writer" to write a Markdown note (a relative path ending in .md), "FINISH" when nothing is left to do in this turn.
When the person's problem should be broken down on the map, put sub-questions for one of the map's nodes in proposal (its nodeId from the list of nodes); the person reviews them before they become nodes.
The person's new messages come first: when they change course, plan again from them. Never record what the person did not say, nor what is already recorded; write a note again only to change it. Write in English.`,
  zh: `你是 ThinkingMap 咨询中的规划 Agent。你不直接和用户说话，由前台 Agent 来说。你把用户的问题拆成咨询步骤，维护计划和事实，并决定下一步：
"front"：需要问用户（问题写在 askUser），"db_writer"：保存一条记录（类型 FACT、REQUIREMENT、DECISION 或 OPEN_QUESTION，并给出它来源消息的 id），"note_writer"：写一篇 Markdown 笔记（以 .md 结尾的相对路径），"FINISH"：本轮没有要做的了。
需要在思维导图上拆解用户的问题时，在 proposal 中为导图的某个节点提出子问题（nodeId 取自节点列表）；用户审核后它们才会成为节点。
用户的新消息优先：如果改变了方向，就依据它重新规划。不要记录用户没说过的内容，也不要重复已有的记录；笔记只有需要修改时才重写。用中文回答。`,
};

/** System prompt of the summariser of earlier messages. */
export const CONSULTATION_SUMMARY_SYSTEM: Bilingual = {
  en: 'Summarise this consultation so far in a few short paragraphs: the problem, what the person needs, facts, decisions and open questions. Keep every requirement the person stated. Write in English.',
  zh: '用几段简短的话总结到目前为止的咨询：问题、用户的需要、事实、决定和未决问题。保留用户提出的每一条需求。用中文回答。',
};

/** `text` cut to `max` characters, keeping its start and its end. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const half = Math.floor((max - 5) / 2);
  return `${text.slice(0, half)} […] ${text.slice(text.length - half)}`;
}

const ROLE_LABEL: Record<Language, Record<ConsultationMessage['role'], string>> = {
  en: { PERSON: 'Person', ASSISTANT: 'Assistant', SUMMARY: 'Summary' },
  zh: { PERSON: '用户', ASSISTANT: '助手', SUMMARY: '摘要' },
};

/** The messages as lines with their ids, each bounded. */
export function transcript(language: Language, messages: ConsultationMessage[]): string {
  return messages
    .map((m) => `[${m.id}] ${ROLE_LABEL[language][m.role]}: ${clip(m.text, CONSULTATION_LIMITS.promptMessageChars)}`)
    .join('\n');
}

function planBlock(state: ConsultationStateType): string {
  const zh = state.language === 'zh';
  const steps = state.plan.map((s, i) => `${i === state.currentStep ? '→' : ' '} ${i + 1}. ${s}`).join('\n');
  const facts = Object.entries(state.context)
    .map(([k, v]) => `- ${k}: ${v}`)
    .join('\n');
  let text = '';
  if (state.summary)
    text += `${zh ? '此前的摘要' : 'Summary of earlier messages'}:\n${clip(state.summary, CONSULTATION_LIMITS.promptSummaryChars)}\n\n`;
  text += `${zh ? '计划' : 'Plan'}:\n${steps || (zh ? '（还没有）' : '(none yet)')}\n`;
  if (facts) text += `\n${zh ? '已知事实' : 'Known facts'}:\n${facts}\n`;
  return text;
}

/** The front agent's prompt: the plan, then the conversation as chat turns (without the messages in `omit`). */
export function frontMessages(state: ConsultationStateType, omit: ReadonlySet<string> = new Set()): ChatMessage[] {
  const chat: ChatMessage[] = state.messages
    .filter((m) => m.role !== 'SUMMARY' && !omit.has(m.id))
    .map((m) => ({
      role: m.role === 'PERSON' ? 'user' : 'assistant',
      content: clip(m.text, CONSULTATION_LIMITS.promptMessageChars),
    }));
  return [{ role: 'system', content: `${CONSULTATION_FRONT_SYSTEM[state.language]}\n\n${planBlock(state)}` }, ...chat];
}

/** What was kept before this turn (the most recent records and notes, bounded), so the planner does not repeat it. */
function keptBlock(state: ConsultationStateType): string {
  const zh = state.language === 'zh';
  const records = state.records.slice(-CONSULTATION_LIMITS.promptRecords);
  const notes = state.notes.slice(-CONSULTATION_LIMITS.promptNotes);
  let text = '';
  if (records.length)
    text += `\n${zh ? '已有记录（不要重复记录）' : 'Already recorded (do not record these again)'}:\n${records
      .map((r) => `- [${r.kind}] ${clip(r.content, CONSULTATION_LIMITS.promptRecordChars)}`)
      .join('\n')}\n`;
  if (notes.length)
    text += `\n${zh ? '已写的笔记（仅在需要修改时重写）' : 'Notes already written (write one again only to change it)'}:\n${notes
      .map((path) => `- ${clip(path, 200)}`)
      .join('\n')}\n`;
  return text;
}

/**
 * The planner's prompt: plan, conversation with ids (without the messages in `omit`), the new messages, what was
 * kept, what this turn did already.
 */
export function plannerMessages(state: ConsultationStateType, omit: ReadonlySet<string> = new Set()): ChatMessage[] {
  const zh = state.language === 'zh';
  const fresh = state.messages.filter((m) => state.unplanned.includes(m.id));
  const shown = state.messages.filter((m) => !omit.has(m.id));
  let content = `${planBlock(state)}\n${zh ? '对话' : 'Conversation'}:\n${transcript(state.language, shown)}\n`;
  if (fresh.length)
    content += `\n${zh ? '用户的新消息（据此规划）' : "The person's new messages (plan with these)"}:\n${transcript(state.language, fresh)}\n`;
  if (state.nodes.length)
    content += `\n${zh ? '导图节点' : "The map's nodes"}:\n${state.nodes.map((n) => `[${n.id}] ${clip(n.question, 200)}`).join('\n')}\n`;
  content += keptBlock(state);
  if (state.innerMessages.length)
    content += `\n${zh ? '本轮已完成' : 'Done in this turn'}:\n${state.innerMessages.map((m) => `- ${clip(m, 300)}`).join('\n')}\n`;
  return [
    { role: 'system', content: CONSULTATION_PLANNER_SYSTEM[state.language] },
    { role: 'user', content },
  ];
}

/** The summariser's prompt: the earlier summary and the messages it now absorbs. */
export function summaryMessages(language: Language, summary: string, messages: ConsultationMessage[]): ChatMessage[] {
  const zh = language === 'zh';
  let content = '';
  if (summary)
    content += `${zh ? '此前的摘要' : 'Earlier summary'}:\n${clip(summary, CONSULTATION_LIMITS.promptSummaryChars)}\n\n`;
  content += `${zh ? '消息' : 'Messages'}:\n${transcript(language, messages)}`;
  return [
    { role: 'system', content: CONSULTATION_SUMMARY_SYSTEM[language] },
    { role: 'user', content },
  ];
}
