import { describe, expect, it } from 'vitest';
import { mapBranch } from './map-branch.ts';
import type { MarkdownMap } from './markdown-map.ts';
import { type MapJson, type MapJsonNode, renderMapJson } from './render-map-json.ts';
import { node } from './test-fixtures.ts';

const map: MarkdownMap = {
  id: 'm1',
  title: 'Open a café?',
  problem: 'Should I?',
  language: 'en',
  status: 'ACTIVE',
  nodes: [
    node('c2', 'r', 'Second', { position: 2, dependsOn: ['c1'] }),
    node('r', null, 'Root'),
    node('c1', 'r', 'First', {
      position: 1,
      status: 'COMPLETED',
      conclusion: 'Yes',
      conclusionKind: 'DECISION',
      contextItems: [{ title: 'note', content: 'rent 3k' }],
    }),
    node('g', 'c1', 'Grandchild'),
  ],
};

const shape = (nodes: MapJsonNode[]): unknown[] => nodes.map((n) => [n.question, shape(n.children)]);

describe('renderMapJson', () => {
  it('should nest the tree in reading order with everything written and ids for dependencies', () => {
    const json = JSON.parse(renderMapJson(map)) as MapJson;
    expect(json).toMatchObject({ format: 'thinkingmap', version: 2, map: { id: 'm1', title: 'Open a café?' } });
    expect(shape(json.tree)).toEqual([
      [
        'Root',
        [
          ['First', [['Grandchild', []]]],
          ['Second', []],
        ],
      ],
    ]);
    expect(json.tree[0]!.children[0]).toMatchObject({
      id: 'c1',
      status: 'COMPLETED',
      conclusion: 'Yes',
      conclusionKind: 'DECISION',
      context: [{ title: 'note', content: 'rent 3k' }],
    });
    expect(json.tree[0]!.children[1]!.dependsOn).toEqual(['c1']);
  });

  it('should export a branch as a tree of its own', () => {
    const json = JSON.parse(renderMapJson(mapBranch(map, 'c1')!)) as MapJson;
    expect(json.map.title).toBe('First');
    expect(shape(json.tree)).toEqual([['First', [['Grandchild', []]]]]);
  });

  it('should carry the consultations’ records and the notes with their Markdown, and leave them out of a branch', () => {
    const withNotes: MarkdownMap = {
      ...map,
      consultations: [{ id: 'k1', records: [{ id: 'r1', kind: 'FACT', content: 'rent 3k', sourceMessageId: 'm9' }] }],
      notes: [{ path: 'plans/first.md', content: '# First\n\n- a `tick`\n' }],
    };
    const json = JSON.parse(renderMapJson(withNotes)) as MapJson;
    expect(json.consultations).toEqual([
      { id: 'k1', records: [{ id: 'r1', kind: 'FACT', content: 'rent 3k', sourceMessageId: 'm9' }] },
    ]);
    expect(json.notes).toEqual([{ path: 'plans/first.md', content: '# First\n\n- a `tick`\n' }]);
    const branch = JSON.parse(renderMapJson(mapBranch(withNotes, 'c1')!)) as MapJson;
    expect([branch.consultations, branch.notes]).toEqual([[], []]);
  });
});
