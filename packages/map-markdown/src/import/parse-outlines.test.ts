import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ImportedNode } from './imported-map.ts';
import { MapImportError } from './imported-map.ts';
import { parseMarkdownOutline } from './parse-markdown-outline.ts';
import { parseOpml } from './parse-opml.ts';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const shape = (nodes: ImportedNode[]): unknown[] =>
  nodes.map((n) => (n.children.length ? [n.question, shape(n.children)] : n.question));
const refusal = (read: () => unknown) => {
  try {
    read();
  } catch (error) {
    if (error instanceof MapImportError) return { where: error.where, reason: error.reason };
  }
  throw new Error('expected a MapImportError');
};

describe('reading OPML as outliners export it', () => {
  it('should read XMind’s topics with their notes as context', () => {
    const map = parseOpml(fixture('xmind.opml'));
    expect(map.title).toBe('Open a café');
    expect(shape(map.tree)).toEqual([['Open a café', [['Location', ['Rent', 'Foot traffic']], 'Menu & suppliers']]]);
    expect(map.tree[0]!.children[0]!.context).toEqual([{ title: '', content: 'Near the university or the station?' }]);
  });

  it('should read MindNode’s document type and Chinese text with a multi-line note', () => {
    const map = parseOpml(fixture('mindnode.opml'));
    expect(shape(map.tree)).toEqual([['要不要换工作', ['薪资', ['成长', ['技术栈']]]]]);
    expect(map.tree[0]!.children[0]!.context[0]!.content).toBe('现在月薪 2 万\n新公司开价 2.6 万');
  });

  it('should read Logseq’s pages with several top blocks', () => {
    const map = parseOpml(fixture('logseq.opml'));
    expect(map.title).toBe('Garden plan');
    expect(shape(map.tree)).toEqual([
      ['What to plant this spring', [['TODO Test the soil [[pH]]', ['Buy a kit']], 'Tomatoes vs peppers']],
      'Watering schedule',
    ]);
  });

  it('should read Workflowy’s formatted text without its HTML, and no head title', () => {
    const map = parseOpml(fixture('workflowy.opml'));
    expect(map.title).toBe('Launch the newsletter');
    expect(shape(map.tree)).toEqual([['Launch the newsletter', ['Pick a platform', 'Write the first three issues']]]);
  });

  it('should read OmniOutliner’s rows with their extra columns ignored', () => {
    const map = parseOpml(fixture('omnioutliner.opml'));
    expect(shape(map.tree)).toEqual([
      ['Research question', ['Literature review', ['Method', ['Interviews', 'Survey']]]],
    ]);
  });

  it('should name the line of malformed XML, the path of an outline without text, and refuse entities', () => {
    expect(refusal(() => parseOpml('<opml version="2.0">\n<body>\n<outline text="a">\n</body></opml>'))).toMatchObject({
      where: expect.stringMatching(/^line \d+, column \d+$/),
    });
    expect(
      refusal(() =>
        parseOpml('<opml><body><outline text="a"><outline text="b"/><outline _note="x"/></outline></body></opml>'),
      ),
    ).toEqual({ where: 'opml/body/outline[1]/outline[2]', reason: 'an outline has no text' });
    expect(refusal(() => parseOpml('<!DOCTYPE x [<!ENTITY a "aaaa">]><opml><body/></opml>')).reason).toContain(
      'entity',
    );
    expect(refusal(() => parseOpml('<rss><channel/></rss>')).reason).toContain('not OPML');
  });
});

describe('reading a Markdown outline', () => {
  it('should nest headings by level, hang lists under them, keep other text as context and the lead as the problem', () => {
    const map = parseMarkdownOutline(fixture('headings.md'));
    expect(map.title).toBe('Reduce churn');
    expect(map.problem).toBe('We keep losing customers after the first month.');
    expect(shape(map.tree)).toEqual([
      [
        'Reduce churn',
        [
          ['Why do people leave?', [['Onboarding is slow', ['Setup takes a day']], 'Price']],
          ['What keeps the ones who stay?', ['Support quality']],
        ],
      ],
    ]);
    expect(map.tree[0]!.context).toEqual([{ title: '', content: 'Churn is 8% a month; the goal is 4%.' }]);
    expect(map.tree[0]!.children[1]!.context[0]!.content).toBe('> Interviews with ten long-time customers.');
    expect(map.tree[0]!.children[0]!.where).toBe('line 7');
  });

  it('should read a nested list with inline markup as plain questions', () => {
    const map = parseMarkdownOutline(fixture('list.md'));
    expect(shape(map.tree)).toEqual([
      ['Plan a trip to Kyoto', [['When to go', ['Cherry blossom season']], 'Where to stay', 'Budget']],
    ]);
  });

  it('should refuse text without an outline and an empty heading, naming the line', () => {
    expect(refusal(() => parseMarkdownOutline('Just a paragraph.'))).toEqual({
      where: 'line 1',
      reason: 'the Markdown has no heading or list item to make a node of',
    });
    expect(refusal(() => parseMarkdownOutline('# Title\n\n##   \n'))).toMatchObject({ where: 'line 3' });
  });
});
