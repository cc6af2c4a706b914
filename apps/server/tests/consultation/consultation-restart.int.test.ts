import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import {
  CONSULTATION,
  CREATE_MAP,
  createThinkingMapClient,
  EVENTS,
  SEND_CONSULTATION_MESSAGE,
  START_CONSULTATION,
} from '@thinkingmap/client';
import { createTestDatabase, logicProviders } from '@thinkingmap/db/testing';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createUserWithToken } from '../../src/auth/tokens.ts';
import { eventually } from '../helpers/agent-driver.ts';
import { startScriptedModel } from '../helpers/scripted-model-server.ts';
import { call } from '../helpers/test-server.ts';

const providers = logicProviders;

const main = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

/** The product's own start (`src/main.ts`) in a child process; resolves with its URL once it listens. */
function startServer(env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', main], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before listening`)));
    lines.on('line', (line) => {
      const found = /GraphQL API on (\S+)\/graphql/.exec(line);
      if (found) resolve({ url: found[1] as string, child });
    });
  });
}

const killed = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });

describe.each(providers)('a consultation turn cut short by a killed server on %s', (provider) => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    // Each cleanup is bounded: a client of a killed server may never hear its socket close.
    for (const cleanup of cleanups.reverse())
      await Promise.race([cleanup(), new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
  }, 60_000);

  it('should run the turn again once, on the same database, after the process is killed mid-plan, without answering the person or writing anything twice', async () => {
    const kept = {
      askUser: null,
      record: { kind: 'FACT', content: 'sells tea', sourceMessageId: null },
      note: { path: 'shop/overview', content: '# Tea shop' },
    };
    const model = await startScriptedModel({
      front_reply: (_p, n) => ({ reply: n === 1 ? 'Tea, noted.' : 'Tea, noted again.', route: 'plan' }),
      // Before the kill the planner keeps a record and a note, then thinks long; the turn run again after the
      // restart plans the same message and decides the same record and note.
      planner_decision: (_p, n) =>
        n === 1
          ? { next: 'note_writer', ...kept }
          : n === 2
            ? { content: '{}', delayMs: 20_000 }
            : { next: 'FINISH', ...kept },
    });
    cleanups.push(() => model.server.close());
    const dir = await mkdtemp(join(tmpdir(), 'tm-restart-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const database = await createTestDatabase(provider);
    cleanups.push(() => database.drop());
    const databaseUrl = database.url;
    const db = await database.open();
    const { token } = await createUserWithToken(db, 'Alice');
    await db.close();
    const env = {
      DATABASE_URL: databaseUrl,
      PORT: '0',
      TM_REQUIRE_TOKEN: '1',
      TM_NOTES_DIR: join(dir, 'notes'),
      TM_MCP_CONFIG: 'none',
      TM_INSTANCE_ID: 'restart-test',
      OPENAI_API_KEY: 'k',
      OPENAI_BASE_URL: model.server.baseURL,
      MODEL: 'scripted',
      OPENAI_TIMEOUT_MS: '120000',
    };
    const connect = (url: string) =>
      createThinkingMapClient({ url: `${url}/graphql`, token, webSocketImpl: WebSocket });
    const first = await startServer(env);
    cleanups.push(() => killed(first.child));
    const firstClient = connect(first.url);
    const client = firstClient.client;
    const map = await call(client, CREATE_MAP, { input: { title: 'Tea shop' } });
    const { id } = await call(client, START_CONSULTATION, { input: { mapId: map.id } });
    await call(client, SEND_CONSULTATION_MESSAGE, { input: { consultationId: id, text: 'I sell tea' } });
    const planning = () =>
      model.server.requests.filter((r) => r.body.response_format?.json_schema?.name === 'planner_decision').length;
    await eventually(async () => planning() === 2, 'the planner thinking after its writes');
    const before = await call(client, CONSULTATION, { id });
    expect(before.records.map((r) => r.content)).toEqual(['sells tea']);
    expect(before.notes.map((n) => n.path)).toEqual(['shop/overview.md']);
    await firstClient.close();
    await killed(first.child);

    const second = await startServer(env);
    cleanups.push(() => killed(second.child));
    const secondClient = connect(second.url);
    cleanups.push(() => secondClient.close());
    const again = secondClient.client;
    const done = await eventually(async () => {
      const c = await call(again, CONSULTATION, { id });
      return !c.busy && planning() === 3 && c;
    }, 'the turn run again');
    expect(done.records.map((r) => r.content)).toEqual(['sells tea']);
    expect(done.messages.map((m) => [m.role, m.text])).toEqual([
      ['PERSON', 'I sell tea'],
      ['ASSISTANT', 'Tea, noted.'],
    ]);
    expect(done.messages[0]?.planned).toBe(true);
    // The note written before the kill is listed and downloadable from the new process.
    expect(done.notes.map((n) => n.path)).toEqual(['shop/overview.md']);
    const download = await fetch(`${second.url}${done.notes[0]?.downloadUrl}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(download.status).toBe(200);
    expect(await download.text()).toBe('# Tea shop');
    // The reply stored before the kill stands: the front agent's model is not asked again.
    expect(
      model.server.requests.filter((r) => r.body.response_format?.json_schema?.name === 'front_reply'),
    ).toHaveLength(1);
    // The turn ended once, after the restart; it started twice (before the kill and again).
    const events = await call(again, EVENTS, { mapId: map.id, after: 0, first: 200 });
    const changes = events.events.flatMap((e) => ('change' in e ? [e.change] : []));
    expect(changes.filter((c) => c === 'TURN_ENDED')).toHaveLength(1);
    // Planned again, the same record and note were not written again.
    expect(changes.filter((c) => c === 'RECORD_ADDED')).toHaveLength(1);
    expect(changes.filter((c) => c === 'NOTE_WRITTEN')).toHaveLength(1);
    // …and the progress log says so: written once, found already kept when planned again.
    expect(done.logs.map((l) => l.text)).toEqual([
      'Note written: shop/overview.md',
      'Recorded: sells tea',
      'Already recorded: sells tea',
      'Note already written: shop/overview.md',
    ]);
  }, 120_000);
});
