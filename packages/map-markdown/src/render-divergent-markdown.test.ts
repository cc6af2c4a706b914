import { lexer, type Token } from 'marked';
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

/** A final output with what escaping would spoil: headings, a list, code with indentation and its own fence. */
const DOCUMENT = [
  '# Should I open the café?',
  '',
  '**Yes**: the footfall is enough [L1.T1].',
  '',
  '- rent: fine',
  '',
  '```python',
  'def cups(footfall):',
  '    return round(footfall * 0.06)',
  '```',
  '',
  '## ````Not a heading of the map',
].join('\n');

/** Every token of a Markdown text, nested ones included. */
function tokens(list: Token[]): Token[] {
  return list.flatMap((t) => [
    t,
    ...tokens(('tokens' in t && t.tokens) || []),
    ...tokens(('items' in t && t.items) || []),
  ]);
}

describe('a divergent final output in a map’s Markdown export', () => {
  it('should keep the document exactly as written, in a block nothing in it can close', () => {
    for (const language of ['en', 'zh'] as const) {
      const base = map(language);
      const nodes = base.nodes.map((n) =>
        n.id === 'f' ? { ...n, status: 'COMPLETED' as const, conclusion: DOCUMENT } : n,
      );
      const text = renderMapMarkdown({ ...base, nodes }, { ids: false });
      expect(text).toContain(language === 'en' ? 'Document (Markdown, as written):' : '文档（Markdown 原文）:');
      const code = tokens(lexer(text)).filter((t): t is Token & { type: 'code' } => t.type === 'code');
      // One block, the whole document in it: its code keeps its indentation, its fence and heading stay text.
      expect(code.map((c) => [c.lang, c.text])).toEqual([['markdown', DOCUMENT]]);
      // The map's own headings only (its title, its tree): none from the document.
      const headings = tokens(lexer(text)).filter((t) => t.type === 'heading');
      expect(headings.map((t) => (t as { text: string }).text)).toEqual(['Open a café?', expect.any(String)]);
    }
  });
});
