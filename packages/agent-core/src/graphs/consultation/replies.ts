import type { ConsultationMessage } from '../../ports/consultation-store-port.ts';

/**
 * The person's messages no reply answers yet, oldest first. A reply that names the message it answers
 * (`answersId`) answers it and every message of the person's before it; one that names none (the planner's
 * question, a reply stored before replies named theirs) stands after everything before it.
 */
export function unanswered(messages: readonly ConsultationMessage[]): ConsultationMessage[] {
  const at = new Map(messages.map((m, i) => [m.id, i]));
  let answeredUpTo = -1;
  messages.forEach((m, i) => {
    if (m.role !== 'ASSISTANT') return;
    const answered = m.answersId ? (at.get(m.answersId) ?? -1) : i - 1;
    answeredUpTo = Math.max(answeredUpTo, answered);
  });
  return messages.filter((m, i) => m.role === 'PERSON' && i > answeredUpTo);
}

/**
 * The conversation as the person lived it up to `target`, the message about to be answered: each reply right after
 * the message it answers (a message sent while a reply was written comes after that reply), and nothing the person
 * wrote after `target` (those get their own replies).
 */
export function conversationUpTo(
  messages: readonly ConsultationMessage[],
  target: ConsultationMessage,
): ConsultationMessage[] {
  const repliesTo = new Map<string, ConsultationMessage[]>();
  for (const m of messages)
    if (m.role === 'ASSISTANT' && m.answersId) repliesTo.set(m.answersId, [...(repliesTo.get(m.answersId) ?? []), m]);
  const ordered: ConsultationMessage[] = [];
  for (const m of messages) {
    if (m.role === 'ASSISTANT' && m.answersId) continue;
    ordered.push(m, ...(repliesTo.get(m.id) ?? []));
    if (m.id === target.id) break;
  }
  return ordered;
}
