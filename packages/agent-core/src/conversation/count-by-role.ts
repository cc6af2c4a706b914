import type { MessageRole } from '../domain/enums.ts';

/**
 * How many of `roles` (one entry per message, or `[role, count]` pairs from a grouped count) each role
 * has, every role present (0 when none): the by-role counts of a conversation's summary.
 */
export function countByRole(
  roles: Iterable<MessageRole | readonly [MessageRole, number]>,
): Record<MessageRole, number> {
  const counts: Record<MessageRole, number> = { USER: 0, ASSISTANT: 0, SYSTEM: 0 };
  for (const entry of roles) {
    if (typeof entry === 'string') counts[entry] += 1;
    else counts[entry[0]] += entry[1];
  }
  return counts;
}
