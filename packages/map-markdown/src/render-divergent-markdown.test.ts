import { describe, expect, it } from 'vitest';
import { renderMapMarkdown } from './render-map-markdown.ts';
import { node } from './test-fixtures.ts';

const map = (language: 'en' | 'zh') => ({
  id: 'm1',
  title: 'Open a café?',
  problem: '',
  goal: '',
  constraints: [],
  language,
  status: 'ACTIVE' as const,
  nodes: [
    node('r', null, 'Where?'),
    node('s0', 'r', 'Summary, level 0', { divergentRole: 'SUMMARY', divergentLevel: 0 }),
    node('t1', 's0', 'market', { divergentRole: 'TASK', divergentLevel: 1 }),
    node('s1', 's0', 'Summary, level 1', {
      position: 1,
      divergentRole: 'SUMMARY',
      divergentLevel: 1,
      completionScore: 0.8,
    }),
    node('f', 's1', 'Final output', { divergentRole: 'FINAL', divergentLevel: 1 }),
  ],
});

describe('the levels of a divergent session in a map’s Markdown', () => {
  it('should show each node’s role and level, and a summary’s completion score', () => {
    const text = renderMapMarkdown(map('en'));
    expect(text).toContain('- Divergent task · level 1\n');
    expect(text).toContain('- Divergent summary · level 1 · completion 0.8\n');
    expect(text).toContain('- Divergent final output · level 1');
  });

  it('should say it in Chinese for a Chinese map', () => {
    const text = renderMapMarkdown(map('zh'));
    expect(text).toContain('- 发散总结 · 层级 1 · 完成度 0.8');
    expect(text).toContain('- 发散最终输出 · 层级 1');
  });
});
