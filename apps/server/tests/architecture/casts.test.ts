import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../../../', import.meta.url));

/** Where type assertions are counted: every app and package, and the benchmarks. */
const COUNTED = ['apps', 'packages', 'bench'];
const SKIPPED_DIRS = new Set([
  'node_modules',
  'generated',
  'dist',
  'build',
  '.svelte-kit',
  '.turbo',
  'tests',
  'testing',
]);
/** Test files and test helpers: what runs only under a test runner. */
const TEST_FILE = /\.test\.ts$|test-|testing|^vitest.*\.config\.ts$/;

/**
 * The most type assertions (`x as T`, `<T>x`; `as const` aside) non-test code may hold, TypeScript and Svelte alike.
 * Lower it when a change removes some.
 */
const MAX_CASTS = 40;

/** Svelte's own parser, from the web app that depends on it: it reads TypeScript in scripts and markup alike. */
const svelte: { parse(source: string, options: { modern: true }): unknown } = createRequire(
  join(repo, 'apps/web/package.json'),
)('svelte/compiler');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED_DIRS.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    const source = entry.name.endsWith('.ts') || entry.name.endsWith('.svelte');
    return source && !TEST_FILE.test(entry.name) ? [relative(repo, path)] : [];
  });
}

const lineOf = (text: string, offset: number) => text.slice(0, offset).split('\n').length;

/** The type assertions of a TypeScript file, each as `path:line as T`. */
function castsInTypeScript(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && node.type.getText(source) !== 'const') {
      found.push(`${file}:${lineOf(text, node.getStart(source))} as ${node.type.getText(source)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

interface EstreeNode {
  type?: string;
  start?: number;
  typeAnnotation?: { start: number; end: number };
}

/** The type assertions of a Svelte component, in its scripts and its markup, in the order of their lines. */
function castsInSvelte(file: string, text: string): string[] {
  const found: { line: number; type: string }[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      value.forEach(visit);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const node: EstreeNode = value;
    if ((node.type === 'TSAsExpression' || node.type === 'TSTypeAssertion') && node.typeAnnotation) {
      const type = text.slice(node.typeAnnotation.start, node.typeAnnotation.end);
      if (type !== 'const') found.push({ line: lineOf(text, node.start ?? 0), type });
    }
    for (const [key, child] of Object.entries(value)) if (key !== 'parent') visit(child);
  };
  visit(svelte.parse(text, { modern: true }));
  return found.sort((a, b) => a.line - b.line).map(({ line, type }) => `${file}:${line} as ${type}`);
}

function castsIn(file: string): string[] {
  const text = readFileSync(join(repo, file), 'utf8');
  return file.endsWith('.svelte') ? castsInSvelte(file, text) : castsInTypeScript(file, text);
}

const casts = COUNTED.flatMap((dir) => sourceFiles(join(repo, dir))).flatMap(castsIn);

describe('type assertions', () => {
  it('should find the assertions in Svelte markup and scripts', () => {
    const text = '<script lang="ts">let a = b as number; const c = 1 as const;</script>\n<p>{(d as string).length}</p>';
    expect(castsInSvelte('Probe.svelte', text)).toEqual(['Probe.svelte:1 as number', 'Probe.svelte:2 as string']);
  });

  it('should not pretend a value is anything with `as never`', () => {
    const never = casts.filter((cast) => cast.endsWith(' as never'));
    expect(never, never.join('\n')).toEqual([]);
  });

  it(`should stay at most ${MAX_CASTS} in non-test code`, () => {
    expect(casts.length, casts.join('\n')).toBeLessThanOrEqual(MAX_CASTS);
  });
});
