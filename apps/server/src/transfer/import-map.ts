import { detectLanguage, normalizeNotePath } from '@thinkingmap/agent-core';
import type { Map as MapRow } from '@thinkingmap/db';
import {
  type ImportedMap,
  MapImportError,
  parseMapJson,
  parseMarkdownOutline,
  parseOpml,
} from '@thinkingmap/map-markdown/import';
import { z } from 'zod';
import type { CommandContext } from '../commands/context.ts';
import { ValidationError } from '../commands/domain-errors.ts';
import { toMapSnapshot } from '../commands/event-snapshots.ts';
import { LIMITS, language, parseInput, text } from '../commands/input.ts';
import { assertCanChange, mutateMap } from '../commands/mutate-map.ts';
import { newId } from '../commands/new-id.ts';
import { writeNodeBatch } from '../maps/node-batch.ts';
import { writeImportedContent } from './import-content.ts';
import { ImportError } from './import-error.ts';
import { planImport } from './import-plan.ts';
import { MapFileFormat } from './map-document.ts';

/** The longest file an import reads, in characters (a request's body limit, 1 MB by default, comes first over HTTP). */
export const MAX_IMPORT_CHARACTERS = 5_000_000;

export const importMapInput = z.object({
  format: z.enum(MapFileFormat),
  content: z
    .string()
    .min(1, 'must not be empty')
    .max(MAX_IMPORT_CHARACTERS, `must be at most ${MAX_IMPORT_CHARACTERS.toLocaleString('en')} characters`),
  title: text(LIMITS.title).nullish(),
  language: language.nullish(),
});

/** What writes the imported notes (the consultations' Markdown files of the new map). */
export interface NoteWriter {
  write(mapId: string, path: string, content: string): Promise<string>;
}

const READERS: Record<MapFileFormat, (content: string) => ImportedMap> = {
  JSON: parseMapJson,
  MARKDOWN: parseMarkdownOutline,
  OPML: parseOpml,
};

/** Runs `work`; a refusal of the file (its reader's or a field's) becomes an {@link ImportError} naming the place. */
async function naming<T>(format: MapFileFormat, work: () => Promise<T> | T): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof MapImportError) throw new ImportError(format, error.where, error.reason);
    if (error instanceof ValidationError) throw new ImportError(format, error.field, error.reason);
    throw error;
  }
}

/**
 * Imports a file as a new map owned by the viewer: a JSON export of a map (everything it holds comes back), or a
 * Markdown or OPML outline (its tree). One change of the new map's history and one batch of events — MapCreated,
 * then its nodes and what comes with them — in one transaction; the notes are written once it committed. A file
 * that cannot be read, or holds more than an import takes, answers an {@link ImportError} naming where, and
 * nothing is created.
 */
export async function importMap(ctx: CommandContext, notes: NoteWriter, raw: unknown): Promise<MapRow> {
  assertCanChange(ctx, 'Map', 'new');
  const input = parseInput(importMapInput, raw);
  const plan = await naming(input.format, () => {
    const file = READERS[input.format](input.content);
    const checked = planImport(file, { ...input, outline: input.format !== 'JSON' });
    checked.file.notes.forEach((note, i) => {
      try {
        normalizeNotePath(note.path);
      } catch (error) {
        throw new ValidationError(`notes[${i}].path`, error instanceof Error ? error.message : String(error));
      }
    });
    return checked;
  });
  const { map: fields, file } = plan;
  const texts = [fields.title, fields.problem, ...plan.nodes.slice(0, 20).map((node) => node.question)];
  const data = {
    id: newId(),
    ownerId: ctx.viewer.id,
    ...fields,
    language: fields.language ?? detectLanguage(texts.join('\n')),
    mode: file.mode ?? 'STANDARD',
    status: file.status ?? 'ACTIVE',
  };
  const map = await naming(input.format, () =>
    mutateMap(ctx, { create: (tx) => tx.map.create({ data }) }, async (tx, emit, created) => {
      emit({ type: 'MapCreated', payload: { map: toMapSnapshot(created) } });
      const written = await writeNodeBatch(ctx.db.rows, tx, emit, created.id, plan.nodes, { oneRoot: false });
      await writeImportedContent(ctx.db.rows, tx, emit, created, plan, written);
      return created;
    }),
  );
  for (const note of file.notes) await notes.write(map.id, note.path, note.content);
  return map;
}
