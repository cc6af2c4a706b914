import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const repo = fileURLToPath(new URL('../../../../', import.meta.url));

/** Where type assertions are counted: everything but the web app and packages/db (rewritten on other branches). */
const COUNTED = ['apps/server/src', 'packages', 'bench/src'];
const NOT_COUNTED = ['packages/db/'];
const SKIPPED_DIRS = new Set(['node_modules', 'generated', 'dist', 'build', '.svelte-kit', '.turbo']);

/**
 * The most type assertions (`x as T`, `<T>x`; `as const` aside) non-test code may hold. Lower it when a change
 * removes some; the aim is fewer than 60 in the whole repository.
 */
const MAX_CASTS = 115;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED_DIRS.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !/\.test\.ts$|test-|testing/.test(entry.name) ? [relative(repo, path)] : [];
  });
}

/** The type assertions of one file, each as `path:line as T`. */
function castsIn(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(join(repo, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && node.type.getText(source) !== 'const') {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      found.push(`${file}:${line} as ${node.type.getText(source)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const casts = COUNTED.flatMap((dir) => sourceFiles(join(repo, dir)))
  .filter((file) => !NOT_COUNTED.some((prefix) => file.startsWith(prefix)))
  .flatMap(castsIn);

describe('type assertions', () => {
  it('should not pretend a value is anything with `as never`', () => {
    const never = casts.filter((cast) => cast.endsWith(' as never'));
    expect(never, never.join('\n')).toEqual([]);
  });

  it(`should stay at most ${MAX_CASTS} outside the web app and packages/db`, () => {
    expect(casts.length, casts.join('\n')).toBeLessThanOrEqual(MAX_CASTS);
  });
});
