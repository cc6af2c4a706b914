import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/** The scripted MCP server the manager tests start over stdio or HTTP. */
export const FIXTURE_SCRIPT = fileURLToPath(new URL('./fixture-mcp-server.mjs', import.meta.url));

/** Behaviour of a fixture server; see the script's header. */
export interface FixtureBehaviour {
  name: string;
  delayMs?: number;
  mode?: 'ok' | 'error';
  crashMarker?: string;
}

/** The environment that gives a fixture server `behaviour`. */
export function fixtureEnv(behaviour: FixtureBehaviour): Record<string, string> {
  return {
    FIXTURE_NAME: behaviour.name,
    FIXTURE_DELAY_MS: String(behaviour.delayMs ?? 0),
    FIXTURE_MODE: behaviour.mode ?? 'ok',
    ...(behaviour.crashMarker ? { FIXTURE_CRASH_MARKER: behaviour.crashMarker } : {}),
  };
}

/** A port nothing listens on (found free, then released): the address of a server that is down. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** A fixture server listening over Streamable HTTP as its own process. */
export interface HttpFixture {
  url: string;
  stop(): Promise<void>;
}

/** Starts the fixture over Streamable HTTP on `port` and waits until it listens. */
export async function startHttpFixture(port: number, behaviour: FixtureBehaviour): Promise<HttpFixture> {
  const child: ChildProcess = spawn(process.execPath, [FIXTURE_SCRIPT, '--http', String(port)], {
    env: { ...process.env, ...fixtureEnv(behaviour) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => chunk.toString().includes('listening') && resolve());
    child.once('exit', (code) => reject(new Error(`fixture exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}
