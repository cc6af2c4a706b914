import { escapeXml } from '@thinkingmap/map-markdown';
import type { MapDependency, MapNode } from '../api/results.ts';
import { STATUS_COLORS } from '../map/status-colors.ts';
import { layoutTree, NODE_HEIGHT, NODE_WIDTH } from '../map/tree-layout.ts';
import { wrapLabel } from '../map/wrap-label.ts';

/** What the image shows: a title and the nodes (a whole map or one branch) with their dependencies. */
export interface SvgInput {
  title: string;
  nodes: readonly MapNode[];
  dependencies: Iterable<MapDependency>;
  /** A node's status in words, in the interface language. */
  statusText: (node: MapNode) => string;
}

/** A standalone SVG image and its size in pixels. */
export interface SvgImage {
  svg: string;
  width: number;
  height: number;
}

const PAD = 40;
const TITLE_SPACE = 48;
const FONT = 'Inter, "PingFang SC", "Hiragino Sans GB", "Noto Sans CJK SC", "Microsoft YaHei", system-ui, sans-serif';

/**
 * The map drawn as a standalone SVG image, laid out exactly as the canvas lays it out (every branch unfolded):
 * cards with the question, a status colour and its words, parent–child edges, and dependencies (amber and
 * dashed while open, green once the node waited for is concluded). Text is escaped; nothing is fetched.
 */
export function renderMapSvg(input: SvgInput): SvgImage {
  const layout = layoutTree(input.nodes, input.dependencies);
  const byId = new Map(input.nodes.map((node) => [node.id, node]));
  const { bounds } = layout;
  const width = Math.ceil(bounds.width + 2 * PAD);
  const height = Math.ceil(bounds.height + 2 * PAD + TITLE_SPACE);
  const dx = PAD - bounds.x;
  const dy = PAD + TITLE_SPACE - bounds.y;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="${escapeXml(FONT)}">`,
    '<defs>',
    '<marker id="open" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#d97706"/></marker>',
    '<marker id="met" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#059669"/></marker>',
    '</defs>',
    `<rect width="${width}" height="${height}" fill="#fbfcfe"/>`,
    `<text x="${PAD}" y="${PAD + 8}" font-size="20" font-weight="700" fill="#1e2433">${escapeXml(input.title)}</text>`,
    `<g transform="translate(${dx} ${dy})">`,
    '<g fill="none" stroke="#b4bccd" stroke-width="1.6">',
    ...layout.treeEdges.map((edge) => `<path d="${edge.path}"/>`),
    '</g>',
    '<g fill="none" stroke-width="1.8">',
    ...layout.dependencyEdges.map((edge) =>
      byId.get(edge.from)?.status === 'COMPLETED'
        ? `<path d="${edge.path}" stroke="#059669" marker-end="url(#met)"/>`
        : `<path d="${edge.path}" stroke="#d97706" stroke-dasharray="6 5" marker-end="url(#open)"/>`,
    ),
    '</g>',
  ];
  for (const place of layout.placed) {
    const node = byId.get(place.id);
    if (!node) continue;
    const colors = STATUS_COLORS[node.status];
    const lines = wrapLabel(node.question, 30, 2)
      .map((line, i) => `<tspan x="16" dy="${i === 0 ? 0 : 17}">${escapeXml(line)}</tspan>`)
      .join('');
    out.push(
      `<g transform="translate(${place.x} ${place.y})">`,
      `<rect width="${NODE_WIDTH}" height="${NODE_HEIGHT}" rx="10" fill="#ffffff" stroke="#dfe3ec"/>`,
      `<rect width="6" height="${NODE_HEIGHT}" rx="3" fill="${colors.accent}"/>`,
      `<text x="16" y="24" font-size="13" font-weight="600" fill="#1e2433">${lines}</text>`,
      `<circle cx="19" cy="${NODE_HEIGHT - 15}" r="3.5" fill="${colors.accent}"/>`,
      `<text x="27" y="${NODE_HEIGHT - 11}" font-size="11" font-weight="600" fill="${colors.text}">${escapeXml(input.statusText(node))}</text>`,
      '</g>',
    );
  }
  out.push('</g>', '</svg>');
  return { svg: `${out.join('\n')}\n`, width, height };
}
