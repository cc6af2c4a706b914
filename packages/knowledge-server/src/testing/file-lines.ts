import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Lines `startLine..endLine` (1-based, inclusive) of `folder/path`: what a source claims to quote. */
export function fileLines(folder: string, path: string, startLine: number, endLine: number): string {
  return readFileSync(join(folder, path), 'utf8')
    .split('\n')
    .slice(startLine - 1, endLine)
    .join('\n');
}
