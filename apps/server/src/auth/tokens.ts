import { createHash, randomBytes } from 'node:crypto';
import type { Db, User } from '@thinkingmap/db';

/** Hashes a bearer token; only hashes are stored. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Creates a new random token (prefixed so it is recognisable in logs and config files). */
export function newToken(): string {
  return `tm_${randomBytes(24).toString('base64url')}`;
}

/** Creates a user with one API token and returns both; the token is shown only here. */
export async function createUserWithToken(db: Db, name: string, options: { isLocal?: boolean } = {}) {
  const token = newToken();
  const user = await db.user.create({
    data: {
      name,
      isLocal: options.isLocal ?? false,
      tokens: { create: { tokenHash: hashToken(token), label: 'default' } },
    },
  });
  return { user, token };
}

/** Issues a further token for an existing user. */
export async function issueToken(db: Db, userId: string, label = ''): Promise<string> {
  const token = newToken();
  await db.apiToken.create({ data: { userId, tokenHash: hashToken(token), label } });
  return token;
}

/**
 * Finds the user a token belongs to. Results are cached briefly so a busy client does not cost a
 * database read per request.
 */
export function createTokenResolver(db: Db, ttlMs = 30_000) {
  const cache = new Map<string, { user: User | null; until: number }>();
  return async function resolveToken(token: string): Promise<User | null> {
    const hash = hashToken(token);
    const hit = cache.get(hash);
    if (hit && hit.until > Date.now()) return hit.user;
    const row = await db.apiToken.findUnique({ where: { tokenHash: hash }, include: { user: true } });
    const user = row?.user ?? null;
    if (cache.size > 10_000) cache.clear();
    cache.set(hash, { user, until: Date.now() + ttlMs });
    return user;
  };
}
