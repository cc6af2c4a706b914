import { describe, expect, it } from 'vitest';
import { parseSearchResults } from './parse-search-results.ts';

describe('parseSearchResults', () => {
  it('should keep the path and line range of each structured hit as its source', () => {
    const results = parseSearchResults(
      {
        content: [],
        structuredContent: {
          results: [
            {
              path: 'a.md',
              title: 'A',
              headings: ['A', 'Part'],
              startLine: 3,
              endLine: 7,
              snippet: 'text',
              score: 0.5,
            },
            { path: 'b.md', title: 'B', headings: [], startLine: 9, endLine: 9, snippet: 'one line' },
          ],
        },
      },
      'kb',
      'knowledge_search',
    );
    expect(results).toEqual([
      {
        title: 'A › Part',
        content: 'text',
        score: 0.5,
        sources: [{ title: 'a.md:3-7', server: 'kb', path: 'a.md', startLine: 3, endLine: 7 }],
      },
      {
        title: 'B',
        content: 'one line',
        sources: [{ title: 'b.md:9', server: 'kb', path: 'b.md', startLine: 9, endLine: 9 }],
      },
    ]);
  });

  it('should keep a link when a hit has a URL instead of a file', () => {
    const [result] = parseSearchResults(
      { content: [], structuredContent: { results: [{ title: 'Page', content: 'c', url: 'https://x.example/p' }] } },
      'web',
      'knowledge_search',
    );
    expect(result?.sources).toEqual([{ title: 'Page', server: 'web', uri: 'https://x.example/p' }]);
  });

  it('should turn a text-only answer into one result sourced to the server', () => {
    expect(parseSearchResults({ content: [{ type: 'text', text: 'plain answer' }] }, 'web', 'search')).toEqual([
      { title: 'web · search', content: 'plain answer', sources: [{ title: 'web · search', server: 'web' }] },
    ]);
  });

  it('should return nothing for an empty answer', () => {
    expect(parseSearchResults({ content: [] }, 'web', 'search')).toEqual([]);
  });
});
