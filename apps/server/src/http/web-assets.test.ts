import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { immutableAssets } from './web-assets.ts';

const SCRIPT = 'export const answer = 42;\n'.repeat(100);
const STYLE = 'body { color: black; }\n';

/** A raw HTTP exchange (no decompression), so the encoding sent is the one seen. */
function get(url: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the web app’s content-hashed files from memory', () => {
  let dir: string;
  let server: Server;
  let origin: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tm-web-assets-'));
    const immutable = join(dir, '_app/immutable');
    await mkdir(join(immutable, 'entry'), { recursive: true });
    await mkdir(join(immutable, 'assets'), { recursive: true });
    await writeFile(join(immutable, 'entry/app.abc.js'), SCRIPT);
    await writeFile(join(immutable, 'entry/app.abc.js.br'), brotliCompressSync(SCRIPT));
    await writeFile(join(immutable, 'entry/app.abc.js.gz'), gzipSync(SCRIPT));
    await writeFile(join(immutable, 'assets/page.def.css'), STYLE);
    await writeFile(join(dir, 'favicon.svg'), '<svg/>');
    const assets = immutableAssets(dir);
    server = createServer((req, res) => {
      if (assets(req, res)) return;
      res.writeHead(404, { 'x-served-by': 'web-handler' });
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await rm(dir, { recursive: true, force: true });
  });

  it('should send the Brotli copy to a client that accepts it, cacheable for good', async () => {
    const res = await get(`${origin}/_app/immutable/entry/app.abc.js`, { 'accept-encoding': 'gzip, deflate, br' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toBe('text/javascript');
    expect(res.headers['cache-control']).toBe('public,max-age=31536000,immutable');
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(res.body.equals(brotliCompressSync(SCRIPT))).toBe(true);
  });

  it('should send the gzip copy, or the file itself, as the request accepts', async () => {
    const gzip = await get(`${origin}/_app/immutable/entry/app.abc.js`, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.body.equals(gzipSync(SCRIPT))).toBe(true);
    const plain = await get(`${origin}/_app/immutable/entry/app.abc.js?v=1`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(SCRIPT);
  });

  it('should send the file itself when the build made no compressed copy', async () => {
    const res = await get(`${origin}/_app/immutable/assets/page.def.css`, { 'accept-encoding': 'br, gzip' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-type']).toBe('text/css');
    expect(res.body.toString()).toBe(STYLE);
  });

  it('should answer HEAD with the headers only', async () => {
    const res = await get(`${origin}/_app/immutable/assets/page.def.css`, {}, 'HEAD');
    expect(res.status).toBe(200);
    expect(Number(res.headers['content-length'])).toBe(STYLE.length);
    expect(res.body.length).toBe(0);
  });

  it('should leave other paths, other methods and range requests to the web handler', async () => {
    for (const res of [
      await get(`${origin}/favicon.svg`),
      await get(`${origin}/_app/immutable/entry/missing.js`),
      await get(`${origin}/_app/immutable/entry/app.abc.js`, {}, 'POST'),
      await get(`${origin}/_app/immutable/entry/app.abc.js`, { range: 'bytes=0-9' }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.headers['x-served-by']).toBe('web-handler');
    }
  });
});
