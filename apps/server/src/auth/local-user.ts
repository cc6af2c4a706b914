import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Database, User } from '@thinkingmap/db';
import { hashToken, issueToken } from './tokens.ts';

/**
 * The embedded default's person: created on first start, with a token saved to `tokenFile` so local
 * tools (the CLI, MCP clients) can act as them too. Requests without a token act as this user unless the
 * server requires tokens.
 */
export async function ensureLocalUser(db: Database, tokenFile?: string): Promise<{ user: User; token: string | null }> {
  let user = await db.read.user.findFirst({ where: { isLocal: true }, orderBy: { createdAt: 'asc' } });
  if (!user) user = await db.write((tx) => tx.user.create({ data: { name: 'Local user', isLocal: true } }));
  if (!tokenFile) return { user, token: null };
  if (existsSync(tokenFile)) {
    const saved = readFileSync(tokenFile, 'utf8').trim();
    const row = await db.read.apiToken.findUnique({ where: { tokenHash: hashToken(saved) } });
    if (row?.userId === user.id && !row.revokedAt) return { user, token: saved };
  }
  const { token } = await issueToken(db, user.id, { label: 'local' });
  mkdirSync(dirname(tokenFile), { recursive: true });
  writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
  return { user, token };
}
