import { childrenByParent, treeOrder } from '@thinkingmap/map-graph';
import { escapeXml } from './escape-xml.ts';
import { LABELS, type MarkdownLabels } from './labels.ts';
import type { MarkdownMap, MarkdownNode } from './markdown-map.ts';

/** A node's note: its goal, constraints, status, dependencies and conclusion, one per paragraph, in the map's language. */
function noteOf(node: MarkdownNode, labels: MarkdownLabels, questionOf: (id: string) => string): string {
  const parts = [`${labels.nodeStatus[node.status]}`];
  if (node.goal) parts.push(`${labels.goal}: ${node.goal}`);
  if (node.constraints?.length) parts.push(`${labels.constraints}: ${node.constraints.join('; ')}`);
  if (node.dependsOn?.length)
    parts.push(`${labels.waitsFor}: ${node.dependsOn.map((id) => `“${questionOf(id)}”`).join(', ')}`);
  if (node.conclusion) {
    const kind = node.conclusionKind ? ` (${labels.conclusionKind[node.conclusionKind]})` : '';
    parts.push(`${labels.conclusion}${kind}:\n${node.conclusion}`);
  }
  return parts.join('\n\n');
}

/**
 * Renders a map as OPML 2.0, the outline format XMind, MindNode, OmniOutliner and most outliners open: one
 * `outline` per node in tree order (siblings by position), its question as `text` and its details as the
 * `_note` those apps show beside a topic. A map with several roots gets one top topic, the map's title, so a
 * mind-map app has a single centre. Everything written is XML-escaped.
 */
export function renderMapOpml(map: MarkdownMap): string {
  const labels = LABELS[map.language];
  const byId = new Map(map.nodes.map((node) => [node.id, node]));
  const questionOf = (id: string) => byId.get(id)?.question ?? id;
  const children = childrenByParent(map.nodes);
  const roots = children.get(null) ?? [];
  const wrap = roots.length !== 1;
  const base = wrap ? 1 : 0;
  const lines: string[] = [];
  const open: number[] = [];
  const indent = (depth: number) => '  '.repeat(depth + 2);
  const closeDownTo = (depth: number) => {
    while (open.length && open.at(-1)! >= depth) lines.push(`${indent(open.pop()!)}</outline>`);
  };
  const outline = (depth: number, text: string, note: string, leaf: boolean) => {
    closeDownTo(depth);
    const noteAttr = note ? ` _note="${escapeXml(note)}"` : '';
    lines.push(`${indent(depth)}<outline text="${escapeXml(text)}"${noteAttr}${leaf ? ' />' : '>'}`);
    if (!leaf) open.push(depth);
  };
  const mapNote = [map.problem, map.goal ? `${labels.goal}: ${map.goal}` : ''].filter(Boolean).join('\n\n');
  if (wrap) outline(0, map.title, mapNote, roots.length === 0);
  for (const { node, depth } of treeOrder(map.nodes)) {
    const leaf = !children.get(node.id)?.length;
    const note = [wrap || depth > 0 ? '' : mapNote, noteOf(node, labels, questionOf)].filter(Boolean).join('\n\n');
    outline(depth + base, node.question, note, leaf);
  }
  closeDownTo(0);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<opml version="2.0">',
    '  <head>',
    `    <title>${escapeXml(map.title)}</title>`,
    '  </head>',
    '  <body>',
    ...lines,
    '  </body>',
    '</opml>',
    '',
  ].join('\n');
}
