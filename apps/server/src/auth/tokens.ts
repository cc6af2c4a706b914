import { hash, randomBytes } from 'node:crypto';
import { type ApiToken, type Database, type ReadDb, TokenScope, type User } from '@thinkingmap/db';
import { LRUCache } from 'lru-cache';
import type { Access } from '../commands/access.ts';

/** Hashes a bearer token; only hashes are stored. */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

/** Creates a new random token (prefixed so it is recognisable in logs and config files). */
export function newToken(): string {
  return `tm_${randomBytes(24).toString('base64url')}`;
}

/** What a new token may do and until when. */
export interface TokenGrant {
  label?: string;
  scope?: TokenScope;
  expiresAt?: Date | null;
}

/** Creates a user with one API token and returns both; the token is shown only here. */
export async function createUserWithToken(
  db: Database,
  name: string,
  options: { isLocal?: boolean } & TokenGrant = {},
) {
  const token = newToken();
  const user = await db.write((tx) =>
    tx.user.create({
      data: {
        name,
        isLocal: options.isLocal ?? false,
        tokens: {
          create: {
            tokenHash: hashToken(token),
            label: options.label ?? 'default',
            scope: options.scope ?? TokenScope.FULL,
            expiresAt: options.expiresAt ?? null,
          },
        },
      },
    }),
  );
  return { user, token };
}

/** Issues a further token for an existing user; returns the token (shown once) and its stored row. */
export async function issueToken(
  db: Database,
  userId: string,
  grant: TokenGrant = {},
): Promise<{ token: string; row: ApiToken }> {
  const token = newToken();
  const row = await db.write((tx) =>
    tx.apiToken.create({
      data: {
        userId,
        tokenHash: hashToken(token),
        label: grant.label ?? '',
        scope: grant.scope ?? TokenScope.FULL,
        expiresAt: grant.expiresAt ?? null,
      },
    }),
  );
  return { token, row };
}

/** How {@link createTokenResolver} caches what it found. */
export interface TokenCacheOptions {
  /**
   * How long a token's row (or its absence) is trusted before the database is asked again (30 s). Revocations
   * reach every instance at once through the bus ({@link TokenResolver.forget}); this bounds a lost message.
   */
  ttlMs?: number;
  /** Tokens remembered at most; the least recently used go first (10,000). */
  maxTokens?: number;
  /** The clock the time to live is measured on, in milliseconds (`performance`); tests pass their own. */
  clock?: { now(): number };
  /**
   * Called with a granted token's id when it is looked up (see {@link createTokenUseRecorder}): on every lookup,
   * except that a token peeked again and again is told of at least once every {@link REPEATED_PEEK_MS}.
   */
  onUse?: (tokenId: string, now: Date) => unknown;
}

/** Finds what a token grants; see {@link createTokenResolver}. */
export interface TokenResolver {
  /** The token's access, or null when it is unknown, revoked or expired. */
  resolve(token: string, now?: Date): Promise<Access | null>;
  /**
   * The same answer without waiting, from what is cached (fresh, not forgotten); undefined when only the database
   * can tell. The last token granted is answered again without any lookup while nothing about it can have changed
   * (see {@link REPEATED_PEEK_MS}); `now` given skips that.
   */
  peek(token: string, now?: Date): Access | null | undefined;
  /** Drops a token from the cache (it was revoked): the next request reads the database. */
  forget(tokenId: string): void;
  /** Drops everything (revocations may have been missed, e.g. while Redis was away). */
  clear(): void;
}

type CachedToken = { row: (ApiToken & { user: User }) | null };

/**
 * How long the last token peeked is answered again without a lookup (1 s), within its row's time to live and before
 * its expiry: a client sending one token over and over (every read of a map) costs a comparison, not a cache lookup,
 * a date, a new access and a use record each time. Forgetting the token or clearing the cache ends it at once.
 */
export const REPEATED_PEEK_MS = 1_000;

/** The last token peeked, its access, and until when that holds (see {@link REPEATED_PEEK_MS}). */
interface RepeatedPeek {
  token: string;
  access: Access;
  /** Wall-clock ms: the first of the token's expiry and {@link REPEATED_PEEK_MS} after the lookup. */
  until: number;
  /** On the cache's clock: when the cached row's time to live ends. */
  staleAt: number;
}

/**
 * Finds the access a token grants. Rows are cached briefly (an LRU with a time to live) so a busy client does not
 * cost a database read per request; concurrent lookups of one token share one read. Expiry is checked on every
 * call against the cached row; revocation drops the row from every instance's cache at once.
 */
export function createTokenResolver(db: ReadDb, options: TokenCacheOptions = {}): TokenResolver {
  const cache = new LRUCache<string, CachedToken>({
    max: options.maxTokens ?? 10_000,
    ttl: options.ttlMs ?? 30_000,
    ...(options.clock && { perf: options.clock, ttlResolution: 0 }),
    fetchMethod: async (hash) => ({
      row: await db.apiToken.findUnique({ where: { tokenHash: hash }, include: { user: true } }),
    }),
  });
  // A busy client sends the same token on every request: its hash is remembered (bounded like the rows), so a
  // request costs a lookup, not a sha256. Revocation and expiry act on the rows, so this changes no answer.
  const hashes = new LRUCache<string, string>({ max: options.maxTokens ?? 10_000 });
  // The last one is also kept aside: comparing costs less than a lookup (which hashes the token's text).
  let lastToken: string | undefined;
  let lastHash = '';
  const hashOf = (token: string) => {
    if (token === lastToken) return lastHash;
    let hashed = hashes.get(token);
    if (hashed === undefined) {
      hashed = hashToken(token);
      hashes.set(token, hashed);
    }
    lastToken = token;
    lastHash = hashed;
    return hashed;
  };
  const accessOf = (cached: CachedToken | undefined, now: Date): Access | null => {
    const row = cached?.row;
    if (!row || row.revokedAt || (row.expiresAt && row.expiresAt <= now)) return null;
    options.onUse?.(row.id, now);
    return { viewer: row.user, tokenId: row.id, scope: row.scope, expiresAt: row.expiresAt };
  };
  const ttlClock = options.clock ?? performance;
  let repeated: RepeatedPeek | undefined;
  return {
    resolve: async (token, now = new Date()) => accessOf(await cache.fetch(hashOf(token)), now),
    peek(token, now) {
      if (now === undefined && repeated?.token === token) {
        if (Date.now() < repeated.until && ttlClock.now() <= repeated.staleAt) return repeated.access;
        repeated = undefined;
      }
      const at = now ?? new Date();
      const hash = hashOf(token);
      const cached = cache.get(hash);
      if (cached === undefined) return undefined;
      const access = accessOf(cached, at);
      if (access && now === undefined) {
        const until = Math.min(
          at.getTime() + REPEATED_PEEK_MS,
          access.expiresAt?.getTime() ?? Number.POSITIVE_INFINITY,
        );
        repeated = { token, access, until, staleAt: ttlClock.now() + cache.getRemainingTTL(hash) };
      }
      return access;
    },
    forget(tokenId) {
      if (repeated?.access.tokenId === tokenId) repeated = undefined;
      for (const [hash, value] of cache.entries()) if (value.row?.id === tokenId) cache.delete(hash);
    },
    clear: () => {
      repeated = undefined;
      cache.clear();
    },
  };
}

/** How often a token's `lastUsedAt` is written at most (a minute). */
export const TOKEN_USE_INTERVAL_MS = 60_000;

/**
 * Records when tokens are used (`ApiToken.lastUsedAt`) at most once per `intervalMs` per token, on all instances
 * together: a lookup costs a cache check; the write is queued after the request and only changes a row whose
 * `lastUsedAt` is older than the interval. A failed write is logged, never the request's concern.
 */
export function createTokenUseRecorder(
  db: Pick<Database, 'write'>,
  logError: (error: unknown) => void,
  intervalMs = TOKEN_USE_INTERVAL_MS,
): (tokenId: string, now: Date) => Promise<void> | undefined {
  const recent = new LRUCache<string, true>({ max: 10_000, ttl: intervalMs });
  return (tokenId, now) => {
    if (recent.has(tokenId)) return undefined;
    recent.set(tokenId, true);
    const before = new Date(now.getTime() - intervalMs);
    return db
      .write((tx) =>
        tx.apiToken.updateMany({
          where: { id: tokenId, OR: [{ lastUsedAt: null }, { lastUsedAt: { lte: before } }] },
          data: { lastUsedAt: now },
        }),
      )
      .then(() => {}, logError);
  };
}
