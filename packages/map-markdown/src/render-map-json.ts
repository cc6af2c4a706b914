import { byPosition, childrenByParent } from '@thinkingmap/map-graph';
import type { MarkdownConsultationRecord, MarkdownMap, MarkdownNode, MarkdownNote } from './markdown-map.ts';

/** The format name and version a JSON export carries, so a reader can tell what it holds. */
export const MAP_JSON_FORMAT = { format: 'thinkingmap', version: 1 } as const;

/** A node of the JSON export: what the person and the agents wrote, with its sub-questions nested in order. */
export interface MapJsonNode {
  id: string;
  question: string;
  goal: string;
  constraints: string[];
  status: MarkdownNode['status'];
  conclusion: string | null;
  conclusionKind: MarkdownNode['conclusionKind'] | null;
  /** Ids of the nodes this one waits for (anywhere in the export). */
  dependsOn: string[];
  context: { title: string; content: string }[];
  children: MapJsonNode[];
}

/** The JSON export of a map. */
export interface MapJson {
  format: typeof MAP_JSON_FORMAT.format;
  version: typeof MAP_JSON_FORMAT.version;
  map: { id: string; title: string; problem: string; goal: string; constraints: string[]; language: string };
  tree: MapJsonNode[];
  /** The map's consultations with their records (oldest first), and its notes with their Markdown (by path). */
  consultations: { id: string; records: Required<MarkdownConsultationRecord>[] }[];
  notes: MarkdownNote[];
}

/**
 * A map as a JSON document for other tools: its fields and the tree of nodes, nested in the order the map is
 * read (siblings by position, as the Markdown and OPML renderings order them), with ids so dependencies can
 * refer to nodes; then its consultations' records and its notes (path and Markdown). Pretty-printed, ending with a newline.
 */
export function renderMapJson(map: MarkdownMap): string {
  const children = childrenByParent(map.nodes, byPosition);
  const build = (roots: readonly MarkdownNode[]): MapJsonNode[] => {
    const top: MapJsonNode[] = [];
    const stack: { node: MarkdownNode; into: MapJsonNode[] }[] = roots.map((node) => ({ node, into: top })).reverse();
    while (stack.length) {
      const { node, into } = stack.pop()!;
      const json: MapJsonNode = {
        id: node.id,
        question: node.question,
        goal: node.goal ?? '',
        constraints: [...(node.constraints ?? [])],
        status: node.status,
        conclusion: node.conclusion ?? null,
        conclusionKind: node.conclusionKind ?? null,
        dependsOn: [...(node.dependsOn ?? [])],
        context: (node.contextItems ?? []).map(({ title, content }) => ({ title, content })),
        children: [],
      };
      into.push(json);
      const below = children.get(node.id) ?? [];
      for (let i = below.length - 1; i >= 0; i--) stack.push({ node: below[i]!, into: json.children });
    }
    return top;
  };
  const document: MapJson = {
    ...MAP_JSON_FORMAT,
    map: {
      id: map.id,
      title: map.title,
      problem: map.problem ?? '',
      goal: map.goal ?? '',
      constraints: [...(map.constraints ?? [])],
      language: map.language,
    },
    tree: build(children.get(null) ?? []),
    consultations: (map.consultations ?? []).map((consultation) => ({
      id: consultation.id,
      records: consultation.records.map(({ id, kind, content, sourceMessageId }) => ({
        id,
        kind,
        content,
        sourceMessageId: sourceMessageId ?? null,
      })),
    })),
    notes: (map.notes ?? []).map(({ path, content }) => ({ path, content })),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}
