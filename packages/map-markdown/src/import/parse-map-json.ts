import {
  ConclusionKind,
  ConsultationRecordKind,
  DecidedBy,
  DecisionKind,
  DecompositionStrategy,
  DivergentRole,
  Language,
  MapMode,
  MapStatus,
  MessageKind,
  MessageRole,
  NodeIntent,
  NodeStatus,
  StaleReason,
} from '@thinkingmap/db/enums';
import { z } from 'zod';
import { MAP_JSON_FORMAT } from '../render-map-json.ts';
import { type ImportedMap, type ImportedNode, MapImportError } from './imported-map.ts';

/** The versions of the JSON export this reader takes: version 1 lacks what version 2 added, which reads as empty. */
const VERSIONS = [1, MAP_JSON_FORMAT.version];

const text = z.string();
const json = z.json();
const message = z.object({
  id: text,
  parentId: text.nullable().default(null),
  role: z.enum(MessageRole),
  kind: z.enum(MessageKind).default('TEXT'),
  content: text,
  metadata: json.default(null),
});
const decision = z.object({
  runId: text,
  agent: text,
  kind: z.enum(DecisionKind),
  choice: json,
  reason: text.default(''),
  confidence: z.number().min(0).max(1).nullable().default(null),
  decidedBy: z.enum(DecidedBy),
  overridden: json.default(null),
});
/** One node without its children, which are read one by one after it (so a deep tree needs no deep recursion). */
const node = z.object({
  id: text.min(1),
  question: text,
  goal: text.default(''),
  constraints: z.array(text).default([]),
  status: z.enum(NodeStatus).default('READY'),
  statusReason: text.nullable().default(null),
  intent: z.enum(NodeIntent).nullable().default(null),
  strategy: z.enum(DecompositionStrategy).nullable().default(null),
  conclusion: text.nullable().default(null),
  conclusionKind: z.enum(ConclusionKind).nullable().default(null),
  staleReason: z.enum(StaleReason).nullable().default(null),
  staleSourceQuestion: text.nullable().default(null),
  divergentRole: z.enum(DivergentRole).nullable().default(null),
  divergentLevel: z.number().int().min(0).max(100).nullable().default(null),
  completionScore: z.number().min(0).max(1).nullable().default(null),
  dependsOn: z.array(text).default([]),
  context: z.array(z.object({ title: text.default(''), content: text })).default([]),
  conversations: z
    .object({ decompose: z.array(message).default([]), conclude: z.array(message).default([]) })
    .default({ decompose: [], conclude: [] }),
  decisions: z.array(decision).default([]),
  children: z.array(z.unknown()).default([]),
});
const document = z.object({
  format: z.literal(MAP_JSON_FORMAT.format, { error: `must be "${MAP_JSON_FORMAT.format}"` }),
  version: z.number().refine((v) => VERSIONS.includes(v), `must be one of ${VERSIONS.join(', ')}`),
  map: z.object({
    title: text,
    problem: text.default(''),
    goal: text.default(''),
    constraints: z.array(text).default([]),
    language: z.enum(Language).nullable().default(null),
    mode: z.enum(MapMode).nullable().default(null),
    status: z.enum(MapStatus).nullable().default(null),
  }),
  tree: z.array(z.unknown()),
  consultations: z
    .array(
      z.object({
        id: text,
        records: z.array(
          z.object({
            id: text,
            kind: z.enum(ConsultationRecordKind),
            content: text,
            sourceMessageId: text.nullable().default(null),
          }),
        ),
      }),
    )
    .default([]),
  notes: z.array(z.object({ path: text.min(1), content: text })).default([]),
});

/** A JSON path of an issue below `base` (`tree[0].children[1].question`). */
function pathOf(base: string, path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (at, key) => (typeof key === 'number' ? `${at}[${key}]` : at ? `${at}.${String(key)}` : String(key)),
    base,
  );
}

/** Parses `value` against `schema`, or throws the first issue as a {@link MapImportError} at its path. */
function parse<S extends z.ZodType>(schema: S, value: unknown, base: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw new MapImportError(pathOf(base, issue.path) || 'document', issue.message);
}

/** Line and column of a character offset. */
function lineAndColumn(content: string, offset: number): string {
  const before = content.slice(0, offset).split('\n');
  return `line ${before.length}, column ${before.at(-1)!.length + 1}`;
}

/** The text as JSON, or a {@link MapImportError} naming the line and column where it stops being JSON. */
function parseJsonText(content: string): unknown {
  try {
    return JSON.parse(content);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const at = /at position (\d+)/.exec(reason);
    const where = at ? lineAndColumn(content, Number(at[1])) : reason.includes('end of JSON') ? 'end' : 'document';
    throw new MapImportError(where, `not valid JSON: ${reason.replace(/ in JSON at position \d+.*$/, '')}`);
  }
}

/**
 * Reads a map's JSON export (`format: "thinkingmap"`, version 1 or 2). Node ids become the nodes' keys, unique in
 * the document; a dependency on a key that is not in it is refused here, a cycle by the importer.
 */
export function parseMapJson(content: string): ImportedMap {
  const doc = parse(document, parseJsonText(content), '');
  const keys = new Set<string>();
  const tree: ImportedNode[] = [];
  const stack: { raw: unknown; where: string; into: ImportedNode[] }[] = doc.tree
    .map((raw, i) => ({ raw, where: `tree[${i}]`, into: tree }))
    .reverse();
  while (stack.length) {
    const { raw, where, into } = stack.pop()!;
    const { id, children, ...fields } = parse(node, raw, where);
    if (keys.has(id)) throw new MapImportError(`${where}.id`, `the id ${id} is used by another node`);
    keys.add(id);
    const imported: ImportedNode = { ...fields, key: id, where, children: [] };
    into.push(imported);
    for (let i = children.length - 1; i >= 0; i--)
      stack.push({ raw: children[i], where: `${where}.children[${i}]`, into: imported.children });
  }
  const walk: ImportedNode[] = [...tree];
  while (walk.length) {
    const next = walk.pop()!;
    next.dependsOn.forEach((key, i) => {
      if (!keys.has(key)) throw new MapImportError(`${next.where}.dependsOn[${i}]`, `no node has the id ${key}`);
    });
    walk.push(...next.children);
  }
  const { title, problem, goal, constraints, language, mode, status } = doc.map;
  return {
    title,
    problem,
    goal,
    constraints,
    language,
    mode,
    status,
    tree,
    consultations: doc.consultations,
    notes: doc.notes,
  };
}
