import { describe, expect, it } from 'vitest';
import type { ConsultationMessage } from '../../ports/consultation-store-port.ts';
import { conversationUpTo, unanswered } from './replies.ts';

const person = (id: string): ConsultationMessage => ({ id, role: 'PERSON', text: id });
const reply = (id: string, answersId: string | null): ConsultationMessage => ({
  id,
  role: 'ASSISTANT',
  text: id,
  answersId,
});

describe("which of the person's messages a reply answers", () => {
  it('should leave a message sent while the reply to the one before was written unanswered', () => {
    const messages = [person('m1'), person('m2'), reply('r1', 'm1')];
    expect(unanswered(messages).map((m) => m.id)).toEqual(['m2']);
    expect(conversationUpTo(messages, person('m2')).map((m) => m.id)).toEqual(['m1', 'r1', 'm2']);
  });

  it('should take a reply that names no message as answering everything before it', () => {
    expect(unanswered([person('m1'), reply('q', null), person('m2')]).map((m) => m.id)).toEqual(['m2']);
    expect(unanswered([person('m1'), person('m2'), reply('r', null)])).toEqual([]);
  });

  it('should take a reply to a later message as answering the earlier ones too', () => {
    const messages = [person('m1'), person('m2'), reply('r2', 'm2'), person('m3')];
    expect(unanswered(messages).map((m) => m.id)).toEqual(['m3']);
    expect(conversationUpTo(messages, person('m1')).map((m) => m.id)).toEqual(['m1']);
  });
});
