import { subtreeIds } from '@thinkingmap/map-graph';
import {
  type MarkdownMap,
  mapBranch,
  mapFileName,
  renderMapJson,
  renderMapMarkdown,
  renderMapOpml,
} from '@thinkingmap/map-markdown';
import type { MapDependency, MapFields, MapNode } from '../api/results.ts';

/** The formats the workspace exports a map (or a branch) in. */
export const TEXT_FORMATS = ['markdown', 'opml', 'json'] as const;
export const IMAGE_FORMATS = ['svg', 'png'] as const;
export type TextFormat = (typeof TEXT_FORMATS)[number];
export type ImageFormat = (typeof IMAGE_FORMATS)[number];
export type ExportFormat = TextFormat | ImageFormat;

/** A file's extension and type, per format. */
export const FILE_TYPES: Record<ExportFormat, { extension: string; mime: string }> = {
  markdown: { extension: 'md', mime: 'text/markdown;charset=utf-8' },
  opml: { extension: 'opml', mime: 'text/x-opml;charset=utf-8' },
  json: { extension: 'json', mime: 'application/json;charset=utf-8' },
  svg: { extension: 'svg', mime: 'image/svg+xml;charset=utf-8' },
  png: { extension: 'png', mime: 'image/png' },
};

/**
 * The map as the shared renderers take it (`@thinkingmap/map-markdown`), from what the workspace holds: each
 * node with the ids it waits for, and the consultations' records and notes when given; `branchId` cuts out one
 * branch (map-markdown's `mapBranch`: without the map-wide records and notes).
 */
export function exportableMap(
  map: MapFields,
  nodes: Iterable<MapNode>,
  dependencies: Iterable<MapDependency>,
  branchId: string | null = null,
  consultations: Pick<MarkdownMap, 'consultations' | 'notes'> = {},
): MarkdownMap | null {
  const deps = [...dependencies];
  const whole: MarkdownMap = {
    ...map,
    ...consultations,
    nodes: [...nodes].map((node) => ({
      ...node,
      dependsOn: deps.filter((d) => d.nodeId === node.id).map((d) => d.dependsOnId),
    })),
  };
  return branchId ? mapBranch(whole, branchId) : whole;
}

/** The nodes of the branch below `branchId` (its root becomes a root), for drawing the branch as an image. */
export function branchNodes(nodes: readonly MapNode[], branchId: string): MapNode[] {
  const inside = new Set(subtreeIds(nodes, branchId));
  return nodes
    .filter((node) => inside.has(node.id))
    .map((node) => (node.id === branchId ? { ...node, parentId: null } : node));
}

/** A map in a text format, through the one renderer of each (Markdown without ids, for a person). */
export function renderText(format: TextFormat, map: MarkdownMap): string {
  switch (format) {
    case 'markdown':
      return renderMapMarkdown(map, { ids: false });
    case 'opml':
      return renderMapOpml(map);
    case 'json':
      return renderMapJson(map);
  }
}

/** A file name for an export: the title with unsafe characters removed, and the format's extension. */
export function exportFileName(title: string, format: ExportFormat): string {
  return mapFileName(title, FILE_TYPES[format].extension);
}
