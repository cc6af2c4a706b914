// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { aNode } from '../testing/fixtures.ts';
import { renderMapSvg } from './map-svg.ts';
import { pngScale } from './svg-to-png.ts';

describe('renderMapSvg', () => {
  const nodes = [
    aNode({ id: 'root', question: 'Open a café <now> & “soon”?' }),
    aNode({ id: 'a', parentId: 'root', question: 'Where?', status: 'COMPLETED' }),
    aNode({ id: 'b', parentId: 'root', position: 1, question: 'Cost?' }),
    aNode({ id: 'c', parentId: 'root', position: 2, question: 'Staff?' }),
  ];
  const image = renderMapSvg({
    title: 'Café & co',
    nodes,
    dependencies: [
      { id: 'd1', nodeId: 'b', dependsOnId: 'a' },
      { id: 'd2', nodeId: 'c', dependsOnId: 'b' },
    ],
    statusText: (node) => node.status.toLowerCase(),
  });

  it('should draw every card, edge and dependency as a well-formed standalone SVG document', () => {
    const doc = new DOMParser().parseFromString(image.svg, 'image/svg+xml');
    expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
    const svg = doc.documentElement;
    expect(svg.getAttribute('width')).toBe(String(image.width));
    expect(svg.querySelector('text')?.textContent).toBe('Café & co');
    expect([...svg.querySelectorAll('tspan')].map((t) => t.textContent).join(' ')).toContain('Open a café <now>');
    expect(svg.querySelectorAll('path[marker-end="url(#met)"]')).toHaveLength(1);
    expect(svg.querySelectorAll('path[marker-end="url(#open)"]')).toHaveLength(1);
    expect(image.svg).not.toMatch(/href=|<image|<script/);
  });

  it('should scale a PNG down so that no side and no area exceeds what browsers draw', () => {
    expect(pngScale({ width: 800, height: 600 })).toBe(2);
    const tall = pngScale({ width: 2000, height: 150_000 });
    expect(150_000 * tall).toBeLessThanOrEqual(16_384);
    expect(2000 * 150_000 * tall * tall).toBeLessThanOrEqual(100_000_000);
  });
});
