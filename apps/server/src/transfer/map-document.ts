import type { Message } from '@thinkingmap/db';
import type { JsonValue, MarkdownMap, MarkdownMessage } from '@thinkingmap/map-markdown';
import { renderMapJson, renderMapMarkdown, renderMapOpml } from '@thinkingmap/map-markdown';
import { z } from 'zod';
import type { CommandContext } from '../commands/context.ts';
import { ForbiddenError, NotFoundError } from '../commands/domain-errors.ts';
import { id, parseInput } from '../commands/input.ts';
import { strings } from '../maps/records.ts';

/** The formats a map goes out and comes in as. */
export const MapFileFormat = { JSON: 'JSON', MARKDOWN: 'MARKDOWN', OPML: 'OPML' } as const;
export type MapFileFormat = (typeof MapFileFormat)[keyof typeof MapFileFormat];

/** What reads a map's notes (the consultations' Markdown files). */
export interface NoteReader {
  list(mapId: string): Promise<{ path: string }[]>;
  read(mapId: string, path: string): Promise<string>;
}

const JSON_VALUE = z.json();
/** A JSON column as the export writes it. */
const jsonOf = (value: unknown): JsonValue => JSON_VALUE.parse(value ?? null);

/** Groups rows by a key. */
export function groupBy<T>(rows: readonly T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const list = groups.get(key(row));
    if (list) list.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
}

const exportedMessage = (m: Message): MarkdownMessage => ({
  id: m.id,
  parentId: m.parentId,
  role: m.role,
  kind: m.kind,
  content: m.content,
  metadata: jsonOf(m.metadata),
});

/**
 * Everything a map is, as the shared renderers take it (`@thinkingmap/map-markdown`): its fields, every node with
 * its dependencies, context items, both conversations (messages a person cleared are left out) and the runs'
 * decisions, the consultations' records and the notes. Reads only; a map of another viewer is Forbidden.
 */
export async function loadMapDocument(ctx: CommandContext, notes: NoteReader, mapId: unknown): Promise<MarkdownMap> {
  const parsed = parseInput(z.object({ mapId: id }), { mapId }).mapId;
  const read = ctx.db.read;
  const map = await read.map.findUnique({ where: { id: parsed } });
  if (!map) throw new NotFoundError('Map', parsed);
  if (map.ownerId !== ctx.viewer.id) throw new ForbiddenError('Map', parsed);
  const byAge = [{ createdAt: 'asc' as const }, { id: 'asc' as const }];
  const [nodes, dependencies, contextItems, conversations, messages, decisions, consultations, noteFiles] =
    await Promise.all([
      read.node.findMany({ where: { mapId: map.id } }),
      read.dependency.findMany({ where: { mapId: map.id }, orderBy: byAge }),
      read.contextItem.findMany({ where: { mapId: map.id }, orderBy: byAge }),
      read.conversation.findMany({ where: { mapId: map.id }, select: { id: true, nodeId: true, kind: true } }),
      read.message.findMany({ where: { mapId: map.id, deletedAt: null }, orderBy: byAge }),
      read.decision.findMany({
        where: { mapId: map.id },
        orderBy: byAge,
        include: { run: { select: { agent: true } } },
      }),
      read.consultation.findMany({
        where: { mapId: map.id },
        orderBy: byAge,
        select: {
          id: true,
          records: { orderBy: byAge, select: { id: true, kind: true, content: true, sourceMessageId: true } },
        },
      }),
      notes.list(map.id),
    ]);
  const dependsOn = groupBy(dependencies, (d) => d.nodeId);
  const context = groupBy(contextItems, (c) => c.nodeId);
  const decided = groupBy(decisions, (d) => d.nodeId ?? '');
  const conversationOf = new Map(conversations.map((c) => [c.id, c]));
  const kept = new Set(messages.map((m) => m.id));
  const thread = groupBy(messages, (m) => {
    const conversation = conversationOf.get(m.conversationId);
    return `${conversation?.nodeId}:${conversation?.kind}`;
  });
  const messagesOf = (nodeId: string, kind: string) =>
    (thread.get(`${nodeId}:${kind}`) ?? []).map((m) =>
      exportedMessage({ ...m, parentId: m.parentId && kept.has(m.parentId) ? m.parentId : null }),
    );
  return {
    id: map.id,
    title: map.title,
    problem: map.problem,
    goal: map.goal,
    constraints: strings(map.constraints),
    language: map.language,
    status: map.status,
    mode: map.mode,
    nodes: nodes.map((node) => ({
      ...node,
      constraints: strings(node.constraints),
      dependsOn: (dependsOn.get(node.id) ?? []).map((d) => d.dependsOnId),
      contextItems: (context.get(node.id) ?? []).map(({ title, content }) => ({ title, content })),
      conversations: { decompose: messagesOf(node.id, 'DECOMPOSE'), conclude: messagesOf(node.id, 'CONCLUDE') },
      decisions: (decided.get(node.id) ?? []).map((d) => ({
        runId: d.runId,
        agent: d.run.agent,
        kind: d.kind,
        choice: jsonOf(d.choice),
        reason: d.reason,
        confidence: d.confidence,
        decidedBy: d.decidedBy,
        overridden: jsonOf(d.overridden),
      })),
    })),
    consultations,
    notes: await Promise.all(
      noteFiles.map(async (file) => ({ path: file.path, content: await notes.read(map.id, file.path) })),
    ),
  };
}

/** A map in one of the file formats, through the one renderer of each (Markdown without ids, as a person reads it). */
export function renderMapFile(map: MarkdownMap, format: MapFileFormat): string {
  switch (format) {
    case 'JSON':
      return renderMapJson(map);
    case 'MARKDOWN':
      return renderMapMarkdown(map, { ids: false });
    case 'OPML':
      return renderMapOpml(map);
  }
}
