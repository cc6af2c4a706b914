import { describe, expect, it } from 'vitest';
import { aNode } from '../testing/fixtures.ts';
import { markMatches, searchMap, searchTerms } from './map-search.ts';

const nodes = [
  aNode({ id: 'root', question: 'Open a café?' }),
  aNode({ id: 'rent', parentId: 'root', question: 'What will it cost?', goal: 'Know the RENT near the station' }),
  aNode({
    id: 'site',
    parentId: 'root',
    question: '选址在哪里？',
    conclusion: `${'x'.repeat(100)} near the station, next to the university ${'y'.repeat(100)}`,
  }),
];

describe('searchMap', () => {
  it('should search questions, goals and conclusions in any case and say which field matched', () => {
    expect(searchMap(nodes, 'rent')).toEqual([
      { id: 'rent', field: 'goal', snippet: 'Know the RENT near the station' },
    ]);
    expect(searchMap(nodes, 'CAFÉ').map((h) => h.id)).toEqual(['root']);
    expect(searchMap(nodes, '选址').map((h) => [h.id, h.field])).toEqual([['site', 'question']]);
  });

  it('should need every word, each anywhere in the node, and cut a long text around the match', () => {
    expect(searchMap(nodes, 'station cost').map((h) => h.id)).toEqual(['rent']);
    const [hit] = searchMap(nodes, 'university');
    expect(hit!.field).toBe('conclusion');
    expect(hit!.snippet).toMatch(/^….*next to the university y+…$/);
    expect(hit!.snippet.length).toBeLessThanOrEqual(92);
    expect(searchMap(nodes, '   ')).toEqual([]);
  });

  it('should mark every occurrence of every word', () => {
    expect(markMatches('Rent or rent?', searchTerms('RENT'))).toEqual([
      { text: 'Rent', mark: true },
      { text: ' or ', mark: false },
      { text: 'rent', mark: true },
      { text: '?', mark: false },
    ]);
  });
});
