import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createTestDatabase } from '@thinkingmap/db/testing';
import { describe, expect, it } from 'vitest';
import { createTokenResolver } from './tokens.ts';

const serverDir = join(dirname(fileURLToPath(import.meta.url)), '../..');
const run = promisify(execFile);

describe('user:create', () => {
  it('should create a person with a first token printed once, stored as a hash, with the scope asked for', async () => {
    const testDb = await createTestDatabase('sqlite');
    try {
      const { stdout } = await run(
        'node',
        ['--import', 'tsx', 'src/auth/user-create.ts', 'Grace', 'Hopper', '--read-only', '--expires-in-days', '30'],
        { cwd: serverDir, env: { ...process.env, DATABASE_URL: testDb.url } },
      );
      const token = stdout.trim();
      expect(token).toMatch(/^tm_[\w-]+$/);
      const db = await testDb.open();
      try {
        const access = await createTokenResolver(db.read).resolve(token);
        expect(access).toMatchObject({ viewer: { name: 'Grace Hopper', isLocal: false }, scope: 'READ_ONLY' });
        expect(access?.expiresAt?.getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);
        expect(JSON.stringify(await db.read.apiToken.findMany())).not.toContain(token);
      } finally {
        await db.close();
      }
      await expect(
        run('node', ['--import', 'tsx', 'src/auth/user-create.ts'], { cwd: serverDir }),
      ).rejects.toMatchObject({
        code: 2,
      });
    } finally {
      await testDb.drop();
    }
  });
});
