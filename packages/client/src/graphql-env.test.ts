import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(dirname(createRequire(import.meta.url).resolve('gql.tada/package.json')), 'bin/cli.js');

describe('graphql-env.d.ts', () => {
  it('should be what `gql.tada generate output` makes of apps/server/schema.graphql (run `pnpm --filter @thinkingmap/client graphql:generate`)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tm-graphql-env-'));
    try {
      const fresh = join(dir, 'graphql-env.d.ts');
      execFileSync(
        process.execPath,
        [cli, 'generate', 'output', '--tsconfig', join(packageDir, 'tsconfig.json'), '--output', fresh],
        {
          cwd: packageDir,
          stdio: 'pipe',
        },
      );
      expect(readFileSync(join(packageDir, 'src/graphql-env.d.ts'), 'utf8')).toBe(readFileSync(fresh, 'utf8'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
