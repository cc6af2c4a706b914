import type { ConversationSummary } from '../context/node-context.ts';
import type { Language } from '../domain/enums.ts';

const day = (date: Date) => date.toISOString().slice(0, 16).replace('T', ' ');

/**
 * One line that tells a model how much of a conversation it sees: counts and time range. Plain code; a
 * model-written summary of older messages is not needed while the context keeps the last ten.
 */
export function summarizeConversation(summary: ConversationSummary, language: Language): string {
  if (summary.total === 0) return language === 'zh' ? '（对话为空）' : '(no messages yet)';
  const range = summary.firstAt && summary.lastAt ? `${day(summary.firstAt)} – ${day(summary.lastAt)}` : '';
  const older = summary.total - summary.included;
  if (language === 'zh')
    return `共 ${summary.total} 条消息（${range}），显示最近 ${summary.included} 条${older ? `，省略更早的 ${older} 条` : ''}。`;
  return `${summary.total} messages (${range}); showing the last ${summary.included}${older ? `, ${older} older ones omitted` : ''}.`;
}
