import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { redisAnswers } from './redis-reachable.ts';

/** A Redis server of one test file, on a free port: started, stopped and restarted by the test (never 6379). */
export interface PrivateRedis {
  url: string;
  /** Stops the server (SIGKILL, as a crash would); the port stays reserved for {@link start}. */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty (no persistence), and waits until it answers. */
  start(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  server.close();
  await once(server, 'close');
  return port;
}

/** Starts `redis-server --save '' --appendonly no` on a free loopback port. */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const redis: PrivateRedis = {
    url,
    async start() {
      child = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        {
          stdio: 'ignore',
        },
      );
      const deadline = Date.now() + 10_000;
      while (!(await redisAnswers(url))) {
        if (Date.now() > deadline) throw new Error(`redis-server did not answer on port ${port}`);
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
    async stop() {
      if (!child || child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    },
  };
  await redis.start();
  return redis;
}
