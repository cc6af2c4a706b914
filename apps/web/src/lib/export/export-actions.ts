import { EXPORT_MAP } from '@thinkingmap/client';
import type { MarkdownMap } from '@thinkingmap/map-markdown';
import type { Client } from '@urql/core';
import { runQuery } from '../api/request.ts';
import type { Language, MapDependency, MapFields, MapNode } from '../api/results.ts';
import { translate } from '../i18n/translate.ts';
import { download } from './download.ts';
import {
  branchNodes,
  type ExportFormat,
  exportableMap,
  exportFileName,
  FILE_TYPES,
  type ImageFormat,
  renderText,
  type TextFormat,
} from './map-exports.ts';
import { renderMapSvg } from './map-svg.ts';
import { svgToPng } from './svg-to-png.ts';

/** What an export takes from the workspace: the map, its nodes and dependencies, and a branch or none. */
export interface ExportSource {
  map: MapFields;
  nodes: readonly MapNode[];
  dependencies: readonly MapDependency[];
  /** Export only the branch below this node. */
  branchId: string | null;
  /** The interface language (the image's status words). */
  language: Language;
  /** The consultations' records and the map's notes (a whole map's text exports carry them). */
  consultations?: Pick<MarkdownMap, 'consultations' | 'notes'>;
}

export const isText = (format: ExportFormat): format is TextFormat => format !== 'svg' && format !== 'png';

/** The text of a text export (Markdown, OPML, JSON) of the map or branch. */
export function exportText(format: TextFormat, source: ExportSource): string | null {
  const map = exportableMap(source.map, source.nodes, source.dependencies, source.branchId, source.consultations);
  return map ? renderText(format, map) : null;
}

async function exportImage(format: ImageFormat, source: ExportSource): Promise<Blob> {
  const nodes = source.branchId ? branchNodes(source.nodes, source.branchId) : [...source.nodes];
  const title = source.branchId ? (nodes[0]?.question ?? source.map.title) : source.map.title;
  const image = renderMapSvg({
    title,
    nodes,
    dependencies: source.dependencies,
    statusText: (node) => translate(source.language, `status.${node.status}`),
  });
  return format === 'svg' ? new Blob([image.svg], { type: FILE_TYPES.svg.mime }) : svgToPng(image);
}

/** Downloads the map (or branch) in `format`. */
export async function exportMap(format: ExportFormat, source: ExportSource): Promise<void> {
  const title = source.branchId
    ? (source.nodes.find((node) => node.id === source.branchId)?.question ?? source.map.title)
    : source.map.title;
  const content = isText(format)
    ? new Blob([exportText(format, source) ?? ''], { type: FILE_TYPES[format].mime })
    : await exportImage(format, source);
  download(content, exportFileName(title, format));
}

/** The API's name of each text format. */
const API_FORMATS = { markdown: 'MARKDOWN', opml: 'OPML', json: 'JSON' } as const;

/**
 * Downloads a whole map in a text format as the server renders it (`exportMap`: the same renderers, with everything
 * the map holds — conversations, decisions, consultations' records and notes — which the workspace does not load).
 */
export async function exportWholeMap(client: Client, mapId: string, format: TextFormat): Promise<void> {
  const file = await runQuery(client, EXPORT_MAP, { mapId, format: API_FORMATS[format] });
  if (!file.ok) throw new Error(file.error.message);
  download(new Blob([file.value.content], { type: FILE_TYPES[format].mime }), file.value.fileName);
}
