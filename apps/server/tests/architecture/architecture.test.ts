import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cycles, groupGraph, importGraph } from './import-graph.ts';

const repo = fileURLToPath(new URL('../../../../', import.meta.url));
const serverSrc = join(repo, 'apps/server/src');

/**
 * Files that wire the systems together (entry points and the schema's composition). They may import any folder;
 * no other file may import them, so they cannot close a cycle.
 */
const COMPOSITION_ROOTS = new Set([
  'app.ts',
  'app-identity.ts',
  'app-options.ts',
  'app-services.ts',
  'main.ts',
  'index.ts',
  'schema/schema.ts',
  'schema/print-schema.ts',
  'mcp/stdio.ts',
  'auth/user-create.ts',
]);

/** The shared core every system builds on: the command primitive and its event log, and the schema builder. */
const CORE = new Set(['commands', 'schema']);

/**
 * What each system offers the others: any other file of its folder is internal. Commands are how one system
 * changes what another owns (agents and critic suggestions write through them), so they are public.
 */
const PUBLIC_ENTRIES: Record<string, string[]> = {
  auth: ['viewer.ts'],
  consultations: ['consultation-access.ts', 'consultation-columns.ts', 'note-download.ts'],
  critic: ['suggestion-commands.ts'],
  divergent: [
    'divergent-commands.ts',
    'divergent-events.type.ts',
    'divergent-session.type.ts',
    'offered-skill.ts',
    'run-steering.ts',
    'steer-divergent.ts',
  ],
  events: [],
  history: ['undo-commands.ts', 'undo-refused-error.ts'],
  http: ['body-limit.ts', 'deadline.ts', 'query-limits.ts'],
  maps: [
    'conclusion-commands.ts',
    'conversation-commands.ts',
    'dependency-commands.ts',
    'map-commands.ts',
    'map.type.ts',
    'node-batch.ts',
    'node-batch-commands.ts',
    'node-commands.ts',
    'node-state-commands.ts',
    'records.ts',
    'stale-conclusions.ts',
    'tree-commands.ts',
  ],
  mcp: [],
  ops: [],
  runs: ['answerable-questions.ts', 'reply-to-question.ts', 'start-runs.ts'],
  transfer: ['import-error.ts', 'import-map.ts', 'map-document.ts'],
};

const MAX_LINES = 450;
const SKIPPED_DIRS = new Set(['node_modules', 'generated', 'dist', 'build', '.svelte-kit', '.turbo']);

/** Every source file under `dir` (tests included), as paths relative to the repository. */
function codeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED_DIRS.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return codeFiles(path);
    return /\.(ts|js|mjs|svelte)$/.test(entry.name) ? [relative(repo, path)] : [];
  });
}

const folderOf = (file: string) => (file.includes('/') ? (file.split('/')[0] ?? file) : file);
const graph = importGraph(serverSrc);
const inner = new Map([...graph].filter(([file]) => !COMPOSITION_ROOTS.has(file)));

describe('the server’s structure', () => {
  it('should have no import cycle between files', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('should let no file import a composition root', () => {
    const offending = [...inner].flatMap(([file, targets]) =>
      [...targets].filter((target) => COMPOSITION_ROOTS.has(target)).map((target) => `${file} -> ${target}`),
    );
    expect(offending).toEqual([]);
  });

  it('should have no import cycle between folders', () => {
    expect(cycles(groupGraph(inner, folderOf))).toEqual([]);
  });

  it('should know every folder as the shared core or as a system with its public entry', () => {
    const folders = new Set([...graph.keys()].filter((file) => file.includes('/')).map(folderOf));
    const unknown = [...folders].filter((folder) => !CORE.has(folder) && !(folder in PUBLIC_ENTRIES));
    expect(unknown).toEqual([]);
  });

  it('should let a system import another system only through its public entry', () => {
    const offending = [...inner].flatMap(([file, targets]) =>
      [...targets]
        .filter((target) => {
          const folder = folderOf(target);
          if (folder === folderOf(file) || CORE.has(folder) || !target.includes('/')) return false;
          return !PUBLIC_ENTRIES[folder]?.includes(target.slice(folder.length + 1));
        })
        .map((target) => `${file} -> ${target}`),
    );
    expect(offending).toEqual([]);
  });
});

describe('the size of source files', () => {
  it(`should keep every file in apps/ and packages/ within ${MAX_LINES} lines (i18n tables aside)`, () => {
    const files = [...codeFiles(join(repo, 'apps')), ...codeFiles(join(repo, 'packages'))];
    const tooLong = files
      .filter((file) => !file.includes('/i18n/'))
      .map((file) => ({ file, lines: readFileSync(join(repo, file), 'utf8').split('\n').length }))
      .filter(({ lines }) => lines > MAX_LINES);
    expect(tooLong).toEqual([]);
  });
});
