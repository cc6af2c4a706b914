import { byPosition, childrenByParent } from '@thinkingmap/map-graph';
import type {
  MarkdownConsultationRecord,
  MarkdownDecision,
  MarkdownMap,
  MarkdownMessage,
  MarkdownNode,
  MarkdownNote,
} from './markdown-map.ts';

/**
 * The format name and version a JSON export carries, so a reader can tell what it holds. Version 2 added each
 * node's conversations, decisions, intent, strategy, divergent role and staleness, and the map's mode and status.
 */
export const MAP_JSON_FORMAT = { format: 'thinkingmap', version: 2 } as const;

/** A node of the JSON export: what the person and the agents wrote, with its sub-questions nested in order. */
export interface MapJsonNode {
  id: string;
  question: string;
  goal: string;
  constraints: string[];
  status: MarkdownNode['status'];
  statusReason: string | null;
  intent: NonNullable<MarkdownNode['intent']> | null;
  strategy: NonNullable<MarkdownNode['strategy']> | null;
  conclusion: string | null;
  conclusionKind: NonNullable<MarkdownNode['conclusionKind']> | null;
  staleReason: NonNullable<MarkdownNode['staleReason']> | null;
  staleSourceQuestion: string | null;
  divergentRole: NonNullable<MarkdownNode['divergentRole']> | null;
  divergentLevel: number | null;
  completionScore: number | null;
  /** Ids of the nodes this one waits for (anywhere in the export). */
  dependsOn: string[];
  context: { title: string; content: string }[];
  /** Its two conversations, oldest message first; a message's `parentId` is another message of the same one. */
  conversations: { decompose: MarkdownMessage[]; conclude: MarkdownMessage[] };
  /** The runs' decisions about it, oldest first; `runId` groups the decisions of one run. */
  decisions: MarkdownDecision[];
  children: MapJsonNode[];
}

/** The JSON export of a map. */
export interface MapJson {
  format: typeof MAP_JSON_FORMAT.format;
  version: typeof MAP_JSON_FORMAT.version;
  map: {
    id: string;
    title: string;
    problem: string;
    goal: string;
    constraints: string[];
    language: string;
    mode: NonNullable<MarkdownMap['mode']>;
    status: MarkdownMap['status'];
  };
  tree: MapJsonNode[];
  /** The map's consultations with their records (oldest first), and its notes with their Markdown (by path). */
  consultations: { id: string; records: Required<MarkdownConsultationRecord>[] }[];
  notes: MarkdownNote[];
}

const message = (m: MarkdownMessage): MarkdownMessage => ({
  id: m.id,
  parentId: m.parentId,
  role: m.role,
  kind: m.kind,
  content: m.content,
  metadata: m.metadata,
});

const decision = (d: MarkdownDecision): MarkdownDecision => ({
  runId: d.runId,
  agent: d.agent,
  kind: d.kind,
  choice: d.choice,
  reason: d.reason,
  confidence: d.confidence,
  decidedBy: d.decidedBy,
  overridden: d.overridden,
});

/** One node of the export, without its children. */
function jsonNode(node: MarkdownNode): MapJsonNode {
  return {
    id: node.id,
    question: node.question,
    goal: node.goal ?? '',
    constraints: [...(node.constraints ?? [])],
    status: node.status,
    statusReason: node.statusReason ?? null,
    intent: node.intent ?? null,
    strategy: node.strategy ?? null,
    conclusion: node.conclusion ?? null,
    conclusionKind: node.conclusionKind ?? null,
    staleReason: node.staleReason ?? null,
    staleSourceQuestion: node.staleSourceQuestion ?? null,
    divergentRole: node.divergentRole ?? null,
    divergentLevel: node.divergentLevel ?? null,
    completionScore: node.completionScore ?? null,
    dependsOn: [...(node.dependsOn ?? [])],
    context: (node.contextItems ?? []).map(({ title, content }) => ({ title, content })),
    conversations: {
      decompose: (node.conversations?.decompose ?? []).map(message),
      conclude: (node.conversations?.conclude ?? []).map(message),
    },
    decisions: (node.decisions ?? []).map(decision),
    children: [],
  };
}

/**
 * A map as a JSON document for other tools and for `importMap`: its fields and the tree of nodes, nested in the
 * order the map is read (siblings by position, as the Markdown and OPML renderings order them), with ids so
 * dependencies and message threads can refer to each other; then its consultations' records and its notes (path
 * and Markdown). Pretty-printed, ending with a newline.
 */
export function renderMapJson(map: MarkdownMap): string {
  const children = childrenByParent(map.nodes, byPosition);
  const build = (roots: readonly MarkdownNode[]): MapJsonNode[] => {
    const top: MapJsonNode[] = [];
    const stack: { node: MarkdownNode; into: MapJsonNode[] }[] = roots.map((node) => ({ node, into: top })).reverse();
    while (stack.length) {
      const { node, into } = stack.pop()!;
      const json = jsonNode(node);
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
      mode: map.mode ?? 'STANDARD',
      status: map.status,
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
