import type { Database } from '@thinkingmap/db';
import { testProviders, useTestDatabase } from '@thinkingmap/db/testing';
import { describe, expect, it } from 'vitest';
import {
  createTokenResolver,
  createTokenUseRecorder,
  createUserWithToken,
  hashToken,
  issueToken,
  newToken,
  REPEATED_PEEK_MS,
} from './tokens.ts';

const providers = await testProviders();

describe.each(providers)('token resolver on %s', (provider) => {
  const database = useTestDatabase(provider);
  const remove = (token: string) =>
    database.db.write((tx) => tx.apiToken.delete({ where: { tokenHash: hashToken(token) } }));

  it('should resolve a token to its user and scope, and an unknown token to null', async () => {
    const { db } = database;
    const { user, token } = await createUserWithToken(db, 'ada');
    const tokens = createTokenResolver(db.read);
    expect(await tokens.resolve(token)).toMatchObject({ viewer: { id: user.id }, scope: 'FULL', expiresAt: null });
    expect(await tokens.resolve(newToken())).toBeNull();
  });

  it('should answer from its cache until the time to live passes, then ask the database again', async () => {
    const { db } = database;
    const { user, token } = await createUserWithToken(db, 'grace');
    let now = 1_000; // lru-cache treats a start time of 0 as none
    const tokens = createTokenResolver(db.read, { ttlMs: 200, clock: { now: () => now } });
    expect((await tokens.resolve(token))?.viewer.id).toBe(user.id);
    await remove(token);
    // Still cached: a row deleted behind the server's back keeps working for at most the time to live.
    now = 1_199;
    expect((await tokens.resolve(token))?.viewer.id).toBe(user.id);
    now = 1_201;
    expect(await tokens.resolve(token)).toBeNull();
  });

  it('should refuse a revoked token at once once it is forgotten, without waiting for the time to live', async () => {
    const { db } = database;
    const { user } = await createUserWithToken(db, 'linus');
    const { token, row } = await issueToken(db, user.id, { label: 'laptop' });
    const tokens = createTokenResolver(db.read, { ttlMs: 60_000 });
    expect((await tokens.resolve(token))?.tokenId).toBe(row.id);
    await db.write((tx) => tx.apiToken.update({ where: { id: row.id }, data: { revokedAt: new Date() } }));
    tokens.forget(row.id);
    // Forgotten: only the database can tell now, so peeking says nothing (the request takes the waiting path).
    expect(tokens.peek(token)).toBeUndefined();
    expect(await tokens.resolve(token)).toBeNull();
    expect(tokens.peek(token)).toBeNull();
  });

  it('should answer a peek from its cache only, with the same access and expiry as a resolve', async () => {
    const { db } = database;
    const { user } = await createUserWithToken(db, 'margaret');
    const expiresAt = new Date(Date.now() + 60_000);
    const { token } = await issueToken(db, user.id, { scope: 'READ_ONLY', expiresAt });
    const tokens = createTokenResolver(db.read, { ttlMs: 600_000 });
    expect(tokens.peek(token)).toBeUndefined();
    const resolved = await tokens.resolve(token);
    expect(tokens.peek(token)).toEqual(resolved);
    expect(tokens.peek(token, new Date(expiresAt.getTime() + 1))).toBeNull();
    expect(tokens.peek(newToken())).toBeUndefined();
  });

  it('should peek each of two tokens used in turn as its own viewer, and a third as unknown', async () => {
    const { db } = database;
    const [ada, bob] = [await createUserWithToken(db, 'ada'), await createUserWithToken(db, 'bob')];
    const tokens = createTokenResolver(db.read, { ttlMs: 600_000 });
    await tokens.resolve(ada.token);
    await tokens.resolve(bob.token);
    for (let turn = 0; turn < 3; turn++) {
      expect(tokens.peek(ada.token)?.viewer.id).toBe(ada.user.id);
      expect(tokens.peek(ada.token)?.viewer.id).toBe(ada.user.id);
      expect(tokens.peek(bob.token)?.viewer.id).toBe(bob.user.id);
      expect(tokens.peek(newToken())).toBeUndefined();
    }
  });

  it('should answer a token peeked again and again without a lookup, and tell of its use once a second', async () => {
    const { db } = database;
    const { user, token } = await createUserWithToken(db, 'katherine');
    const uses: string[] = [];
    const tokens = createTokenResolver(db.read, { ttlMs: 600_000, onUse: (tokenId) => uses.push(tokenId) });
    await tokens.resolve(token);
    const first = tokens.peek(token);
    for (let i = 0; i < 100; i++) expect(tokens.peek(token)).toBe(first);
    expect(first?.viewer.id).toBe(user.id);
    // The resolve and the first peek; the 100 repeats were answered as the first was.
    expect(uses).toHaveLength(2);
    const peekedUses = () => {
      tokens.peek(token);
      return uses.length;
    };
    await expect.poll(peekedUses, { timeout: 3 * REPEATED_PEEK_MS }).toBe(3);
  });

  it('should stop answering a repeated peek once the token is forgotten, expires or its cached row grows stale', async () => {
    const { db } = database;
    const { user } = await createUserWithToken(db, 'annie');
    let now = 1_000; // lru-cache treats a start time of 0 as none
    const tokens = createTokenResolver(db.read, { ttlMs: 200, clock: { now: () => now } });
    const forgotten = await issueToken(db, user.id);
    await tokens.resolve(forgotten.token);
    expect(tokens.peek(forgotten.token)?.tokenId).toBe(forgotten.row.id);
    tokens.forget(forgotten.row.id);
    expect(tokens.peek(forgotten.token)).toBeUndefined();

    const stale = await issueToken(db, user.id);
    await tokens.resolve(stale.token);
    expect(tokens.peek(stale.token)?.tokenId).toBe(stale.row.id);
    now += 201;
    expect(tokens.peek(stale.token)).toBeUndefined();

    const expiring = await issueToken(db, user.id, { expiresAt: new Date(Date.now() + 300) });
    await tokens.resolve(expiring.token);
    expect(tokens.peek(expiring.token)?.tokenId).toBe(expiring.row.id);
    await expect.poll(() => tokens.peek(expiring.token)).toBeNull();
    expect(Date.now()).toBeGreaterThanOrEqual(expiring.row.expiresAt!.getTime());
  });

  it('should refuse a token from the moment it expires, even from its cache', async () => {
    const { db } = database;
    const { user } = await createUserWithToken(db, 'barbara');
    const expiresAt = new Date(Date.now() + 60_000);
    const { token } = await issueToken(db, user.id, { scope: 'READ_ONLY', expiresAt });
    const tokens = createTokenResolver(db.read, { ttlMs: 600_000 });
    expect(await tokens.resolve(token)).toMatchObject({ scope: 'READ_ONLY', expiresAt });
    expect(await tokens.resolve(token, new Date(expiresAt.getTime() + 1))).toBeNull();
  });

  it('should forget the least recently used token beyond its bound', async () => {
    const { db } = database;
    const first = await createUserWithToken(db, 'first');
    const second = await createUserWithToken(db, 'second');
    const tokens = createTokenResolver(db.read, { maxTokens: 1 });
    expect((await tokens.resolve(first.token))?.viewer.id).toBe(first.user.id);
    expect((await tokens.resolve(second.token))?.viewer.id).toBe(second.user.id);
    await remove(first.token);
    expect(await tokens.resolve(first.token)).toBeNull();
  });

  it('should write when a token was last used, at most once a minute per token, on all instances together', async () => {
    const { db } = database;
    const { user } = await createUserWithToken(db, 'hedy');
    const { token, row } = await issueToken(db, user.id);
    const lastUsedAt = async () => (await db.read.apiToken.findUniqueOrThrow({ where: { id: row.id } })).lastUsedAt;
    const failed: unknown[] = [];
    let writes = 0;
    const counted: Pick<Database, 'write'> = {
      write: (work) => {
        writes++;
        return db.write(work);
      },
    };
    const record = createTokenUseRecorder(counted, (error) => failed.push(error));
    const tokens = createTokenResolver(db.read, { onUse: record });
    expect(await lastUsedAt()).toBeNull();
    const first = new Date();
    await tokens.resolve(token, first);
    for (let i = 0; i < 5; i++) tokens.peek(token, new Date(first.getTime() + i));
    await tokens.resolve(token, new Date(first.getTime() + 10));
    await expect.poll(lastUsedAt).toEqual(first);
    // One write for seven lookups: the rest were answered from memory, the read path never waits for it.
    expect(writes).toBe(1);
    expect(record(row.id, new Date(first.getTime() + 30_000))).toBeUndefined();
    // Another instance within the minute writes nothing; after it, it writes the new time.
    const other = createTokenUseRecorder(db, (error) => failed.push(error));
    await other(row.id, new Date(first.getTime() + 59_000));
    expect(await lastUsedAt()).toEqual(first);
    const later = new Date(first.getTime() + 61_000);
    await createTokenUseRecorder(db, (error) => failed.push(error))(row.id, later);
    expect(await lastUsedAt()).toEqual(later);
    // A refused token is not recorded.
    await db.write((tx) => tx.apiToken.update({ where: { id: row.id }, data: { revokedAt: new Date() } }));
    const afterRevocation = createTokenUseRecorder(counted, (error) => failed.push(error));
    const writesBefore = writes;
    expect(await createTokenResolver(db.read, { onUse: afterRevocation }).resolve(token)).toBeNull();
    expect(writes).toBe(writesBefore);
    expect(failed).toEqual([]);
  });
});
