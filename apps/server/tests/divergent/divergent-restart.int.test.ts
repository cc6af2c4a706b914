import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createThinkingMapClient, START_DIVERGENT } from '@thinkingmap/client';
import type { Provider } from '@thinkingmap/db';
import { createTestDatabase, testProviders } from '@thinkingmap/db/testing';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { call } from '../helpers/test-server.ts';
import { divergentModel, heldAnswer, readSession, rootOf, task, waitForSession } from './divergent-helpers.ts';

const SCRIPT = fileURLToPath(new URL('./child-server.ts', import.meta.url));

const providers = await testProviders();

/**
 * Starts the server as a child process on `databaseUrl`, the model at `modelUrl`, as instance `instanceId`; resolves
 * once it listens.
 */
function startChild(databaseUrl: string, modelUrl: string, instanceId = 'restart-test') {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', SCRIPT, databaseUrl, instanceId], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, OPENAI_BASE_URL: modelUrl, OPENAI_API_KEY: 'test-key', OPENAI_TIMEOUT_MS: '120000' },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before listening`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('READY ')) resolve(line.slice(6).trim());
    });
  });
  return ready.then((url) => {
    const api = createThinkingMapClient({
      url: `${url}/graphql`,
      token: null,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
    });
    return { url, client: api.client, api, child, exited };
  });
}

type Child = Awaited<ReturnType<typeof startChild>>;

/**
 * Runs `scene` with a divergent model planning `tasks` (then converging) whose task `slow` never answers its first call,
 * a database of `provider`, and the two server processes the scene starts; afterwards the first is
 * killed, the second stopped, and the model and the database are gone.
 */
async function crashScene(
  provider: Provider,
  tasks: string[],
  scene: (setup: {
    model: Awaited<ReturnType<typeof divergentModel>>;
    /** Starts the `first` or `second` server on the scene's database and model, as instance `instanceId`. */
    start: (role: 'first' | 'second', instanceId?: string) => Promise<Child>;
  }) => Promise<void>,
) {
  const held = heldAnswer('never sent whole: the process dies first');
  const model = await divergentModel({
    plans: [tasks.map((name) => task(name)), []],
    scores: [0.95],
    timeoutMs: 120_000,
    task: (name, n) => (name === 'slow' && n === 1 ? held.reply : undefined),
  });
  const database = await createTestDatabase(provider);
  const servers: { first?: Child; second?: Child } = {};
  try {
    const start = async (role: 'first' | 'second', instanceId?: string) => {
      servers[role] = await startChild(database.url, model.server.baseURL, instanceId);
      return servers[role];
    };
    await scene({ model, start });
  } finally {
    held.release();
    servers.first?.child.kill('SIGKILL');
    await servers.second?.api.close();
    servers.second?.child.kill('SIGTERM');
    await servers.second?.exited;
    await model.server.close();
    await database.drop();
  }
}

describe('a divergent session across a server crash', { timeout: 180_000 }, () => {
  it('should resume after SIGKILL mid-level without re-running the finished tasks, and finish', async () => {
    await crashScene('sqlite', ['market', 'rent', 'slow'], async ({ model, start }) => {
      const first = await start('first');
      const { rootId } = await rootOf(first.client, 'Where should the second café open?');
      const run = await call(first.client, START_DIVERGENT, { input: { nodeId: rootId } });
      await waitForSession(
        first.client,
        run.id,
        (s) => {
          const status = Object.fromEntries(s.levels.flatMap((l) => l.tasks).map((t) => [t.name, t.status]));
          return status.market === 'DONE' && status.rent === 'DONE' && status.slow === 'RUNNING';
        },
        'two tasks to finish while the third runs',
      );
      first.child.kill('SIGKILL');
      await first.exited;
      await first.api.close();
      const before = model.prompts().length;

      // A new process on the same database (the same instance): it resumes the session at once.
      const second = await start('second');
      const session = await waitForSession(
        second.client,
        run.id,
        (s) => s.status === 'COMPLETED' && s,
        'the resumed session to finish',
      );
      expect(session.outcome).toBe('FINISHED');
      expect(session.levels[0]!.tasks.map((t) => [t.name, t.status])).toEqual([
        ['market', 'DONE'],
        ['rent', 'DONE'],
        ['slow', 'DONE'],
      ]);
      // What the model received after the restart: the unfinished task again, then the rest of the session;
      // never the finished tasks, the first summary or the plan.
      const prompts = model.prompts();
      const after = prompts.slice(before);
      const count = (list: string[], pattern: RegExp) => list.filter((p) => pattern.test(p)).length;
      expect(count(prompts, /Task: market/)).toBe(1);
      expect(count(prompts, /Task: rent/)).toBe(1);
      expect(count(prompts, /Task: slow/)).toBe(2);
      expect(count(after, /Task: slow/)).toBe(1);
      expect(count(prompts, /task planner of a divergent exploration/)).toBe(1);
      expect(count(after, /task planner of a divergent exploration/)).toBe(0);
      // Level 0's summary before the crash; after it, only level 1's (which converges the three tasks).
      expect(count(prompts, /summary agent/)).toBe(2);
      expect(count(after, /summary agent/)).toBe(1);
      expect((await readSession(second.client, run.id)).finalNodeId).not.toBeNull();
    });
  });
});

describe.each(providers)('a divergent session whose instance dies, on %s', { timeout: 180_000 }, (provider) => {
  it('should be taken over by another instance within 15 s of a SIGKILL, and finish', async () => {
    await crashScene(provider, ['market', 'slow'], async ({ model, start }) => {
      const first = await start('first', 'instance-a');
      // The other instance runs beside it from the start, as behind a load balancer.
      const second = await start('second', 'instance-b');
      const { rootId } = await rootOf(first.client, 'Where should the second café open?');
      const run = await call(first.client, START_DIVERGENT, { input: { nodeId: rootId } });
      await waitForSession(
        first.client,
        run.id,
        (s) => s.levels.flatMap((l) => l.tasks).some((t) => t.name === 'slow' && t.status === 'RUNNING'),
        'the slow task to run on the first instance',
      );
      const slowPrompts = () => model.prompts().filter((p) => /Task: slow/.test(p)).length;
      await expect.poll(slowPrompts).toBe(1);
      first.child.kill('SIGKILL');
      const killedAt = performance.now();
      await first.exited;
      await first.api.close();
      // Instance B takes the run over once its lease runs out: the slow task is asked again.
      await expect.poll(slowPrompts, { timeout: 30_000, interval: 100 }).toBe(2);
      expect(performance.now() - killedAt).toBeLessThan(15_000);
      const session = await waitForSession(
        second.client,
        run.id,
        (s) => s.status === 'COMPLETED' && s,
        'the session to finish on the other instance',
      );
      expect(session.outcome).toBe('FINISHED');
      expect(slowPrompts()).toBe(2);
    });
  });
});
