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
      runSettings: { heartbeatMs: 20, maxMissedHeartbeats: 3 },
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

    const refreshes = logged.filter((error) => /lease refresh/.test(String(error)));
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
