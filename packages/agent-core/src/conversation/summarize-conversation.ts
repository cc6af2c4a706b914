import type { ConversationSummary } from '../context/node-context.ts';
import type { Language } from '../domain/enums.ts';

const minute = (iso: string) => iso.slice(0, 16).replace('T', ' ');

/**
 * One line that tells a model how much of a conversation it sees: counts (in all and by who wrote them)
 * and time range. Plain code; a model-written summary of older messages is not needed while the context
 * keeps the last ten.
 */
export function summarizeConversation(summary: ConversationSummary, language: Language): string {
  if (summary.total === 0) return language === 'zh' ? '（对话为空）' : '(no messages yet)';
  const range = summary.firstAt && summary.lastAt ? `${minute(summary.firstAt)} – ${minute(summary.lastAt)}` : '';
  const older = summary.total - summary.included;
  const { USER: user, ASSISTANT: assistant, SYSTEM: system } = summary.byRole;
  if (language === 'zh')
    return `共 ${summary.total} 条消息（用户 ${user}，助手 ${assistant}，系统 ${system}；${range}），显示最近 ${summary.included} 条${older ? `，省略更早的 ${older} 条` : ''}。`;
  return `${summary.total} messages (${user} from the person, ${assistant} from the assistant, ${system} from the system; ${range}); showing the last ${summary.included}${older ? `, ${older} older ones omitted` : ''}.`;
}
