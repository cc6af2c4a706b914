import type { Language, MapMode, MapStatus } from '@thinkingmap/db/enums';
import type { MarkdownNote } from '../markdown-map.ts';
import type { MapJson, MapJsonNode } from '../render-map-json.ts';

/**
 * A node read from a file, before anything is stored: what the JSON export holds of a node (ids are the file's
 * own keys, unique within it), and where it was read, so a refusal can name it.
 */
export interface ImportedNode extends Omit<MapJsonNode, 'id' | 'children'> {
  /** The node's key in the file (a JSON export's id, `n1`, `n2`, … in an outline). */
  key: string;
  /** Where it was read: `line 12` (Markdown), an outline's path (OPML), a JSON path (`tree[0].children[2]`). */
  where: string;
  children: ImportedNode[];
}

/** A map read from a file: the map's fields (null where the file says nothing) and its tree. */
export interface ImportedMap {
  title: string | null;
  problem: string;
  goal: string;
  constraints: string[];
  language: Language | null;
  mode: MapMode | null;
  status: MapStatus | null;
  tree: ImportedNode[];
  consultations: MapJson['consultations'];
  notes: MarkdownNote[];
}

/** A file that cannot be read as a map: `where` names the place (`line 3, column 7`, a path), `reason` what is wrong. */
export class MapImportError extends Error {
  constructor(
    readonly where: string,
    readonly reason: string,
  ) {
    super(`${where}: ${reason}`);
    this.name = 'MapImportError';
  }
}

/** An outline's node: a question and notes kept as context, nothing else known about it. */
export function outlineNode(key: string, question: string, where: string, notes: readonly string[]): ImportedNode {
  return {
    key,
    where,
    question,
    goal: '',
    constraints: [],
    status: 'READY',
    statusReason: null,
    intent: null,
    strategy: null,
    conclusion: null,
    conclusionKind: null,
    staleReason: null,
    staleSourceQuestion: null,
    divergentRole: null,
    divergentLevel: null,
    completionScore: null,
    dependsOn: [],
    context: notes.filter((note) => note.trim()).map((content) => ({ title: '', content: content.trim() })),
    conversations: { decompose: [], conclude: [] },
    decisions: [],
    children: [],
  };
}

/** An outline's map: its title if the file names one, and its tree. */
export function outlineMap(title: string | null, tree: ImportedNode[], problem = ''): ImportedMap {
  return {
    title,
    problem,
    goal: '',
    constraints: [],
    language: null,
    mode: null,
    status: null,
    tree,
    consultations: [],
    notes: [],
  };
}
