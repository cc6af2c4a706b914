import { describe, expect, it } from 'vitest';
import type { MessageRecord } from '../domain/records.ts';
import { replyParentId, threadOf } from './conversation-thread.ts';
import { summarizeConversation } from './summarize-conversation.ts';

const message = (id: string, parentId: string | null): MessageRecord => ({
  id,
  parentId,
  nodeId: 'n',
  conversation: 'DECOMPOSE',
  role: 'USER',
  kind: 'TEXT',
  content: id,
  metadata: null,
  createdAt: new Date(0),
});

describe('conversation threads', () => {
  it('should walk a reply back to the start of its thread', () => {
    const messages = [message('a', null), message('b', 'a'), message('x', null), message('c', 'b')];
    expect(threadOf(messages, 'c').map((m) => m.id)).toEqual(['a', 'b', 'c']);
  });
  it('should stop at a loop instead of hanging', () => {
    expect(threadOf([message('a', 'b'), message('b', 'a')], 'a').map((m) => m.id)).toEqual(['b', 'a']);
  });
  it('should reply to the last message', () => {
    expect(replyParentId([message('a', null), message('b', 'a')])).toBe('b');
    expect(replyParentId([])).toBeNull();
  });
});

describe('summarizeConversation', () => {
  const summary = {
    kind: 'DECOMPOSE' as const,
    total: 14,
    included: 10,
    byRole: { USER: 6, ASSISTANT: 7, SYSTEM: 1 },
    firstAt: '2026-01-01T08:00:00.000Z',
    lastAt: '2026-01-02T09:30:00.000Z',
  };
  it('should give counts, by role, and the time range in English', () => {
    expect(summarizeConversation(summary, 'en')).toBe(
      '14 messages (6 from the person, 7 from the assistant, 1 from the system; 2026-01-01 08:00 – 2026-01-02 09:30); showing the last 10, 4 older ones omitted.',
    );
  });
  it('should give counts and the time range in Chinese', () => {
    expect(summarizeConversation(summary, 'zh')).toBe(
      '共 14 条消息（用户 6，助手 7，系统 1；2026-01-01 08:00 – 2026-01-02 09:30），显示最近 10 条，省略更早的 4 条。',
    );
  });
});
