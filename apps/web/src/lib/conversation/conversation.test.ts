import { describe, expect, it } from 'vitest';
import type { ConversationMessage } from '../api/results.ts';
import { messageSources } from './message-sources.ts';
import { threadView } from './thread-view.ts';

const message = (id: string, parentId: string | null, minute: number): ConversationMessage => ({
  id,
  conversationId: 'c1',
  parentId,
  role: 'USER',
  kind: 'TEXT',
  content: `message ${id}`,
  metadata: null,
  createdAt: new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString(),
});

describe('threadView', () => {
  it('should order by time and mark only replies whose parent is not the message above', () => {
    const entries = threadView([message('c', 'a', 3), message('a', null, 1), message('b', 'a', 2)]);
    expect(entries.map((e) => e.message.id)).toEqual(['a', 'b', 'c']);
    expect(entries.map((e) => e.repliesTo?.id ?? null)).toEqual([null, null, 'a']);
    expect(entries.map((e) => e.depth)).toEqual([0, 1, 1]);
  });
});

describe('messageSources', () => {
  it('should read titled sources, links and plain strings', () => {
    expect(
      messageSources({
        sources: [
          { title: 'Guide', uri: 'https://example.org/guide' },
          { name: 'notes.md' },
          'https://example.org/x',
          42,
          { url: 'https://a.b' },
        ],
      }),
    ).toEqual([
      { title: 'Guide', uri: 'https://example.org/guide' },
      { title: 'notes.md' },
      { title: 'https://example.org/x', uri: 'https://example.org/x' },
      { title: 'https://a.b', uri: 'https://a.b' },
    ]);
  });

  it('should give no sources for metadata without them', () => {
    expect(messageSources(null)).toEqual([]);
    expect(messageSources({ sources: 'nope' })).toEqual([]);
  });
});
