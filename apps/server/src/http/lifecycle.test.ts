import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createLifecycle } from './lifecycle.ts';

/** Whether the server at `url` answers a request now. */
const answers = (url: string) =>
  fetch(url).then(
    (response) => response.ok,
    () => false,
  );

describe('lifecycle', () => {
  it('should drain while the API still answers, then close it, then close what the app owns, in order', async () => {
    const steps: string[] = [];
    const server = createServer((_req, res) => void res.end('ok'));
    let url = '';
    const side = { started: '', stopped: false };
    const lifecycle = createLifecycle({
      server,
      side: {
        listener: {
          start: async (port, host) => {
            side.started = `${host}:${port}`;
            return 'http://side';
          },
          stop: async () => {
            side.stopped = true;
          },
        },
        port: 0,
        host: '127.0.0.1',
      },
      draining: [
        async () => steps.push(`first drain, side stopped: ${side.stopped}, API answers: ${await answers(url)}`),
        () => steps.push('second drain'),
      ],
      closing: [async () => steps.push(`closing, API answers: ${await answers(url)}`)],
    });
    url = await lifecycle.start(0);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(lifecycle.url()).toBe(url);
    expect(lifecycle.sideUrl()).toBe('http://side');
    expect(side.started).toBe('127.0.0.1:0');
    await lifecycle.stop();
    expect(steps).toEqual([
      'first drain, side stopped: true, API answers: true',
      'second drain',
      'closing, API answers: false',
    ]);
  });
});
