import { mkdirSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { repoDir } from './paths.ts';

/** The database kinds ThinkingMap runs on. */
export type Provider = 'sqlite' | 'postgresql';

/** A parsed DATABASE_URL. */
export type DatabaseTarget = { provider: 'sqlite'; file: string } | { provider: 'postgresql'; url: string };

/** The embedded default: a file database in the repository's `.data` folder. */
export const DEFAULT_DATABASE_URL = 'file:.data/thinkingmap.db';

/**
 * Reads a database URL: `postgres://` or `postgresql://` selects PostgreSQL, `file:` a SQLite file
 * (relative paths are taken from the repository root), `:memory:` an in-memory SQLite database.
 */
export function parseDatabaseUrl(url: string = DEFAULT_DATABASE_URL): DatabaseTarget {
  if (/^postgres(ql)?:\/\//.test(url)) return { provider: 'postgresql', url };
  if (url === ':memory:' || url === 'file::memory:') return { provider: 'sqlite', file: ':memory:' };
  if (url.startsWith('file:')) {
    const path = url.slice('file:'.length).split('?')[0] ?? '';
    if (!path) throw new Error(`DATABASE_URL has no file path: ${url}`);
    const file = isAbsolute(path) ? path : resolve(repoDir, path);
    mkdirSync(dirname(file), { recursive: true });
    return { provider: 'sqlite', file };
  }
  throw new Error(`DATABASE_URL must start with file:, postgres:// or postgresql:// (got ${url.split(':')[0]}:)`);
}
