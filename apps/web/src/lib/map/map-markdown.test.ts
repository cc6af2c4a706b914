import { describe, expect, it } from 'vitest';
import { translate } from '../i18n/translate.ts';
import { aMap, aNode } from '../testing/fixtures.ts';
import { mapToMarkdown, markdownFileName } from './map-markdown.ts';

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

describe('mapToMarkdown', () => {
  it('should write the map as a nested list with statuses, goals, dependencies and conclusions', () => {
    const markdown = mapToMarkdown(
      aMap({ title: 'Café', constraints: ['Under 50k'] }),
      nodes,
      [{ id: 'd', nodeId: 'cost', dependsOnId: 'where' }],
      (key, params) => translate('en', key, params),
    );
    expect(markdown).toBe(
      [
        '# Café',
        '',
        '**Problem:** A problem',
        '',
        '**Goal:** A goal',
        '',
        '**Constraints:**',
        '',
        '- Under 50k',
        '',
        '- [ ] **Open a café?** _(Ready)_',
        '  - [x] **Where?** _(Concluded)_',
        '    > **Conclusion (Decision):** Near the station.',
        '    > Most foot traffic.',
        '  - [ ] **What will it cost?** _(Ready)_',
        '    Goal: A budget',
        '    Waits for: “Where?”',
        '',
      ].join('\n'),
    );
  });

  it('should write Chinese labels for a Chinese interface', () => {
    const markdown = mapToMarkdown(aMap(), nodes, [], (key, params) => translate('zh', key, params));
    expect(markdown).toContain('_(已完成)_');
    expect(markdown).toContain('**结论 (决策型):** Near the station.');
  });

  it('should make a safe file name from the title', () => {
    expect(markdownFileName('Open a café: now?')).toBe('Open-a-café-now.md');
    expect(markdownFileName('///')).toBe('thinking-map.md');
  });
});
