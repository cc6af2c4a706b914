import { describe, expect, it } from 'vitest';
import { aMap, aNode } from '../testing/fixtures.ts';
import { branchNodes, exportableMap, exportFileName, renderText } from './map-exports.ts';

// The renderers themselves are tested in packages/map-markdown; these tests cover what the export hands them.
const nodes = [
  aNode({ id: 'root', question: 'Open a café?' }),
  aNode({ id: 'cost', parentId: 'root', position: 1, question: 'What will it cost?', goal: 'A budget' }),
  aNode({
    id: 'where',
    parentId: 'root',
    question: 'Where?',
    status: 'COMPLETED',
    conclusion: 'Near the station.\nMost foot traffic.',
    conclusionKind: 'DECISION',
  }),
];
const deps = [{ id: 'd', nodeId: 'cost', dependsOnId: 'where' }];

describe('the map exports', () => {
  it('should export Markdown as a nested list with statuses, goals, dependencies and conclusions, without ids', () => {
    const markdown = renderText(
      'markdown',
      exportableMap(aMap({ title: 'Café', constraints: ['Under 50k'] }), nodes, deps)!,
    );
    expect(markdown).toBe(
      [
        '# Café',
        '',
        '## Problem',
        '',
        'A problem',
        '',
        '**Goal:** A goal',
        '',
        '**Constraints:**',
        '',
        '- Under 50k',
        '',
        '## Thinking tree',
        '',
        '- [ ] **Open a café?** — Ready',
        '  - [x] **Where?** — Concluded',
        '    - Conclusion (Decision):',
        '      > Near the station.',
        '      > Most foot traffic.',
        '  - [ ] **What will it cost?** — Ready',
        '    - Goal: A budget',
        '    - Waits for: “Where?”',
        '',
      ].join('\n'),
    );
  });

  it('should write the labels of a Chinese map in Chinese', () => {
    const markdown = renderText('markdown', exportableMap(aMap({ language: 'zh' }), nodes, [])!);
    expect(markdown).toContain('## 思考树');
    expect(markdown).toContain('**Where?** — 已完成');
    expect(markdown).toContain('- 结论 (决策型):');
  });

  it('should cut out a branch for the text formats and for the images', () => {
    const branch = exportableMap(aMap(), nodes, deps, 'where')!;
    expect(branch.title).toBe('Where?');
    expect(branch.nodes.map((n) => [n.id, n.parentId])).toEqual([['where', null]]);
    expect(
      branchNodes([...nodes, aNode({ id: 'deep', parentId: 'where' })], 'where').map((n) => [n.id, n.parentId]),
    ).toEqual([
      ['where', null],
      ['deep', 'where'],
    ]);
    expect(renderText('opml', branch)).toContain('<outline text="Where?"');
    expect(JSON.parse(renderText('json', branch)).tree[0].question).toBe('Where?');
  });

  it('should make a safe file name from the title, with the format’s extension', () => {
    expect(exportFileName('Open a café: now?', 'markdown')).toBe('Open-a-café-now.md');
    expect(exportFileName('开咖啡店？', 'opml')).toBe('开咖啡店.opml');
    expect(exportFileName('///', 'png')).toBe('thinking-map.png');
  });

  it('should carry the consultations’ records and notes in the whole map’s Markdown and JSON, not in a branch', () => {
    const consultations = {
      consultations: [
        { id: 'k1', records: [{ id: 'r1', kind: 'DECISION' as const, content: 'open near the station' }] },
      ],
      notes: [{ path: 'plans/lease.md', content: '# Lease\n\nTwo years.' }],
    };
    const whole = exportableMap(aMap({ title: 'Café' }), nodes, deps, null, consultations)!;
    const markdown = renderText('markdown', whole);
    expect(markdown).toContain('## Consultation records\n\n### Consultation\n\n- **Decision:** open near the station');
    expect(markdown).toContain('## Notes\n\n### plans/lease.md\n\n```markdown\n# Lease\n\nTwo years.\n```\n');
    expect(markdown).not.toContain('k1');
    const json = JSON.parse(renderText('json', whole));
    expect(json.notes).toEqual(consultations.notes);
    expect(json.consultations[0].records[0]).toMatchObject({ kind: 'DECISION', content: 'open near the station' });
    const branch = exportableMap(aMap({ title: 'Café' }), nodes, deps, 'where', consultations)!;
    expect(renderText('markdown', branch)).not.toContain('Consultation records');
  });
});
