// @vitest-environment jsdom
import { flushSync, mount, unmount } from 'svelte';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationMessage } from '$lib/api/results.ts';
import MessageView from './MessageView.svelte';

let component: Record<string, unknown> | null = null;

function render(message: ConversationMessage, repliesTo: ConversationMessage | null = null) {
  const target = document.createElement('div');
  component = mount(MessageView, { target, props: { message, repliesTo, onReply: () => {} } });
  flushSync();
  return target;
}

afterEach(() => {
  if (component) void unmount(component);
  component = null;
});

const base: ConversationMessage = {
  id: 'm1',
  conversationId: 'c1',
  parentId: null,
  role: 'ASSISTANT',
  kind: 'TEXT',
  content: 'Hello',
  metadata: null,
  createdAt: '2026-01-01T10:00:00Z',
};

describe('MessageView', () => {
  it('should show a retrieval result with its sources as links', () => {
    const target = render({
      ...base,
      kind: 'RAG',
      content: 'Café density\nThree cafés per block near stations.',
      metadata: { sources: [{ title: 'City survey 2025', uri: 'https://example.org/survey' }, { title: 'notes.md' }] },
    });
    expect(target.textContent).toContain('Retrieved');
    const links = [...target.querySelectorAll('footer a')].map((a) => [a.textContent, a.getAttribute('href')]);
    expect(links).toEqual([['City survey 2025', 'https://example.org/survey']]);
    expect(target.querySelector('footer')?.textContent).toContain('notes.md');
  });

  it('should mark a notice as such', () => {
    const target = render({ ...base, kind: 'NOTICE', role: 'SYSTEM', content: 'The knowledge source is down.' });
    expect(target.querySelector('[data-kind="NOTICE"]')?.textContent).toContain('Notice');
  });

  it('should quote the message it answers when that is not the one above', () => {
    const target = render({ ...base, id: 'm3', parentId: 'm1', role: 'USER', content: 'Why?' }, base);
    expect(target.textContent).toContain('in reply to: Hello');
  });
});
