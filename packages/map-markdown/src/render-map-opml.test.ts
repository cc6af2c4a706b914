import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { mapBranch } from './map-branch.ts';
import type { MarkdownMap } from './markdown-map.ts';
import { renderMapOpml } from './render-map-opml.ts';
import { node } from './test-fixtures.ts';

const cafe: MarkdownMap = {
  id: 'm1',
  title: 'Open a café?',
  problem: 'Should I open a café?',
  goal: 'Decide by June',
  language: 'en',
  status: 'ACTIVE',
  nodes: [
    node('b', 'r', 'Where?', { position: 1, status: 'BLOCKED', dependsOn: ['a'] }),
    node('r', null, 'Open a café?'),
    node('a', 'r', 'How big is the market? <"big" & growing>', {
      status: 'COMPLETED',
      goal: 'A number',
      conclusion: 'Big enough.\nAbout 3000 cups.',
      conclusionKind: 'ANALYTICAL',
    }),
    node('a1', 'a', 'Who walks by?'),
  ],
};

/** The outline tree an outliner reads from the OPML: [text, note, children]. */
type Outline = [string, string | null, Outline[]];

function parseOpml(xml: string): { title: string; outlines: Outline[] } {
  const doc = new new JSDOM('').window.DOMParser().parseFromString(xml, 'text/xml');
  expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
  expect(doc.documentElement.getAttribute('version')).toBe('2.0');
  const read = (element: Element): Outline[] =>
    [...element.children]
      .filter((child) => child.tagName === 'outline')
      .map((child) => [child.getAttribute('text') ?? '', child.getAttribute('_note'), read(child)]);
  return {
    title: doc.querySelector('head > title')?.textContent ?? '',
    outlines: read(doc.querySelector('body')!),
  };
}

describe('renderMapOpml', () => {
  it('should nest the questions in tree order with their details as notes an outliner shows, escaped', () => {
    const { title, outlines } = parseOpml(renderMapOpml(cafe));
    expect(title).toBe('Open a café?');
    expect(outlines).toEqual([
      [
        'Open a café?',
        'Should I open a café?\n\nGoal: Decide by June\n\nReady',
        [
          [
            'How big is the market? <"big" & growing>',
            'Concluded\n\nGoal: A number\n\nConclusion (Analytical):\nBig enough.\nAbout 3000 cups.',
            [['Who walks by?', 'Ready', []]],
          ],
          ['Where?', 'Blocked\n\nWaits for: “How big is the market? <"big" & growing>”', []],
        ],
      ],
    ]);
  });

  it('should give a map with several roots one centre (its title), and label notes in the map’s language', () => {
    const { outlines } = parseOpml(
      renderMapOpml({
        ...cafe,
        language: 'zh',
        nodes: [node('x', null, '甲'), node('y', null, '乙', { position: 1 })],
      }),
    );
    expect(outlines).toEqual([
      [
        'Open a café?',
        'Should I open a café?\n\n目标: Decide by June',
        [
          ['甲', '就绪', []],
          ['乙', '就绪', []],
        ],
      ],
    ]);
  });

  it('should export one branch with its root as the centre and no dependency outside it', () => {
    const branch = mapBranch(cafe, 'b')!;
    expect(parseOpml(renderMapOpml(branch)).outlines).toEqual([['Where?', 'Blocked', []]]);
    expect(mapBranch(cafe, 'missing')).toBeNull();
  });

  it('should drop characters XML cannot hold rather than write a file no app opens', () => {
    const { outlines } = parseOpml(renderMapOpml({ ...cafe, nodes: [node('x', null, 'Bell\u0007 and\ttab')] }));
    expect(outlines[0]![0]).toBe('Bell and\ttab');
  });
});
