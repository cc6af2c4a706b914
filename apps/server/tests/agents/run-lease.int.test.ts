import {
  type ChatRequest,
  type ChatResult,
  type ModelPort,
  OfflineModel,
  type StructuredRequest,
  type StructuredResult,
} from '@thinkingmap/agent-core';
import { CREATE_MAP, CREATE_NODE, createThinkingMapClient, PROCESS_NODE } from '@thinkingmap/client';
import type { Database } from '@thinkingmap/db';
import { createTestDatabase, type TestDatabase } from '@thinkingmap/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type App, buildApp } from '../../src/app.ts';
import { createUserWithToken } from '../../src/auth/tokens.ts';
import { recoverRuns } from '../../src/runs/recover-runs.ts';
import { call } from '../helpers/test-server.ts';

/** The offline model, holding every call until `open()` (or the call's abort). */
class GatedModel implements ModelPort {
  readonly offline = true;
  readonly label = 'gated offline model';
  calls = 0;
  readonly #inner = new OfflineModel();
  #open = () => {};
  readonly #opened = new Promise<void>((resolve) => {
    this.#open = resolve;
  });

  open(): void {
    this.#open();
  }

  async #wait(signal?: AbortSignal): Promise<void> {
    this.calls += 1;
    signal?.throwIfAborted();
    await new Promise<void>((resolve, reject) => {
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      void this.#opened.then(resolve);
    });
  }

  async chat(request: ChatRequest): Promise<ChatResult> {
    await this.#wait(request.signal);
    return this.#inner.chat(request);
  }

  async structured<T>(request: StructuredRequest<T>): Promise<StructuredResult<T>> {
    await this.#wait(request.signal);
    return this.#inner.structured(request);
  }
}

describe('a drive that cannot keep its run lease', () => {
  let testDb: TestDatabase;
  let db: Database;
  let app: App;
  let writesFail = false;
  const model = new GatedModel();
  const logged: unknown[] = [];

  beforeAll(async () => {
    testDb = await createTestDatabase('sqlite');
    db = await testDb.open();
    // The same database, whose writes can be made to fail as when it becomes unreachable.
    const flaky: Database = {
      ...db,
      write: (work) => (writesFail ? Promise.reject(new Error('database unreachable')) : db.write(work)),
    };
    app = await buildApp({
      db: flaky,
      requireToken: true,
      localTokenFile: null,
      recoverRuns: false,
      model,
      runSettings: { heartbeatMs: 100, maxMissedHeartbeats: 3 },
      logError: (error) => logged.push(error),
    });
    await app.start(0);
  });
  afterAll(async () => {
    model.open();
    await app?.stop();
    await db?.close();
    await testDb?.drop();
  });

  it('should log each failed refresh, stop after three, and leave the run to be resumed from its checkpoint', async () => {
    const { token } = await createUserWithToken(db, 'Lease');
    const { client, close } = createThinkingMapClient({ url: `${app.url()}/graphql`, token, webSocketImpl: WebSocket });
    const map = await call(client, CREATE_MAP, { input: { title: 'Lease' } });
    const node = await call(client, CREATE_NODE, { input: { mapId: map.id, question: 'Will the lease hold?' } });
    const run = await call(client, PROCESS_NODE, { nodeId: node.id });
    await close();
    // The drive is in progress, waiting for the model; now the database stops taking writes.
    await expect.poll(() => model.calls).toBeGreaterThan(0);
    writesFail = true;
    await expect.poll(() => app.engine.isActive(run.id)).toBe(false);
    writesFail = false;

    // Failed ones (on a busy machine a slow refresh may also be missed before, still pending when the next is due).
    const refreshes = logged.filter((error) => /lease refresh \d of 3 failed/.test(String(error)));
    expect(refreshes.map(String)).toEqual([
      `Error: run ${run.id}: lease refresh 1 of 3 failed`,
      `Error: run ${run.id}: lease refresh 2 of 3 failed`,
      `Error: run ${run.id}: lease refresh 3 of 3 failed`,
    ]);
    expect((refreshes[0] as Error).cause).toEqual(new Error('database unreachable'));
    // Given up, not ended: still RUNNING, no RunFailed, its checkpoints kept.
    expect(await db.read.agentRun.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({
      status: 'RUNNING',
      errorCode: null,
    });
    expect(await db.read.event.count({ where: { mapId: map.id, type: 'RunFailed' } })).toBe(0);

    // Once its lease looks abandoned, an instance resumes it and it goes on to its question for the person.
    model.open();
    expect(await recoverRuns(app.engine, db, 0)).toBe(1);
    await expect
      .poll(async () => (await db.read.agentRun.findUniqueOrThrow({ where: { id: run.id } })).status, {
        timeout: 10_000,
      })
      .toBe('WAITING');
  });
});

describe('a drive whose lease refreshes hang or find another owner', () => {
  const LEASE_MS = 2_000;
  let testDb: TestDatabase;
  let db: Database;
  let app: App;
  /** While set, every write waits for it (as behind SQLite's one writer or a PostgreSQL lock) before it runs. */
  let held: Promise<void> | null = null;
  let release = () => {};
  const model = new GatedModel();
  const logged: { error: unknown; at: number }[] = [];

  beforeAll(async () => {
    testDb = await createTestDatabase('sqlite');
    db = await testDb.open();
    const slow: Database = {
      ...db,
      write: (work, options) => (held ? held.then(() => db.write(work, options)) : db.write(work, options)),
    };
    app = await buildApp({
      db: slow,
      requireToken: true,
      localTokenFile: null,
      recoverRuns: false,
      model,
      runSettings: { heartbeatMs: 100, maxMissedHeartbeats: 3, leaseMs: LEASE_MS },
      logError: (error) => logged.push({ error, at: Date.now() }),
    });
    await app.start(0);
  });
  afterAll(async () => {
    release();
    model.open();
    await app?.stop();
    await db?.close();
    await testDb?.drop();
  });

  /** A process-node run whose drive is in progress, waiting for the model. */
  async function runInProgress(name: string) {
    const { token } = await createUserWithToken(db, name);
    const { client, close } = createThinkingMapClient({ url: `${app.url()}/graphql`, token, webSocketImpl: WebSocket });
    const map = await call(client, CREATE_MAP, { input: { title: name } });
    const node = await call(client, CREATE_NODE, { input: { mapId: map.id, question: `${name}?` } });
    const calls = model.calls;
    const run = await call(client, PROCESS_NODE, { nodeId: node.id });
    await close();
    await expect.poll(() => model.calls).toBeGreaterThan(calls);
    return run;
  }

  it('should count a refresh still pending at the next heartbeat as missed, and stop before the lease may be claimed', async () => {
    const run = await runInProgress('Hung');
    // Its lease as last confirmed, then every write hangs.
    held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const confirmed = (await db.read.agentRun.findUniqueOrThrow({ where: { id: run.id } })).updatedAt.getTime();
    await expect.poll(() => app.engine.isActive(run.id)).toBe(false);

    const missed = logged.filter(({ error }) => String(error).includes(`run ${run.id}: lease refresh`));
    expect(missed.map(({ error }) => String(error))).toEqual([
      `Error: run ${run.id}: lease refresh 1 of 3 is still pending`,
      `Error: run ${run.id}: lease refresh 2 of 3 is still pending`,
      `Error: run ${run.id}: lease refresh 3 of 3 is still pending`,
    ]);
    // It gave up while its lease was younger than the lease time: no instance could have claimed the run yet.
    expect(missed.at(-1)!.at - confirmed).toBeLessThan(LEASE_MS);
    held = null;
    release();
    expect(await recoverRuns(app.engine, db, LEASE_MS, new Date(missed.at(-1)!.at))).toBe(0);
  });

  it('should stop at once when a refresh finds the run taken over by another instance', async () => {
    const run = await runInProgress('Taken');
    // Another instance claims it, as `recoverRuns` does there.
    await db.write((tx) =>
      tx.agentRun.update({
        where: { id: run.id },
        data: { ownerInstance: 'another-instance', ownerBoot: 'its-boot', updatedAt: new Date() },
      }),
    );
    await expect.poll(() => app.engine.isActive(run.id)).toBe(false);

    const mine = logged.map(({ error }) => String(error)).filter((error) => error.includes(`run ${run.id}`));
    expect(mine).toEqual([`Error: run ${run.id}: no longer this instance's to drive (taken over, or ended)`]);
    // Left as the other instance holds it: still RUNNING, no RunFailed from this one.
    expect(await db.read.agentRun.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({
      status: 'RUNNING',
      ownerInstance: 'another-instance',
      errorCode: null,
    });
  });
});
