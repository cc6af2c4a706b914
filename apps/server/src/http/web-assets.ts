import { readdirSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, relative, sep } from 'node:path';

/** Where SvelteKit puts the app's content-hashed files (scripts, styles, fonts), under the client build. */
const IMMUTABLE_DIR = '_app/immutable';

/** The types of the files a SvelteKit build emits there. */
const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
};

/** One encoding of a file: its bytes and complete headers, built once. */
interface Variant {
  body: Buffer;
  headers: Record<string, string | number>;
}

/** A file with the compressed copies the build made of it (`.br`, `.gz`). */
interface Asset {
  identity: Variant;
  br?: Variant;
  gzip?: Variant;
}

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );

function variant(file: string, type: string, encoding: string | undefined): Variant {
  const body = readFileSync(file);
  const headers: Record<string, string | number> = {
    'content-type': type,
    'content-length': body.length,
    // Content-hashed names: a changed file gets a new name, so a copy never needs asking again.
    'cache-control': 'public,max-age=31536000,immutable',
    vary: 'Accept-Encoding',
  };
  if (encoding) headers['content-encoding'] = encoding;
  return { body, headers };
}

/**
 * Serves the web app's content-hashed files (`/_app/immutable/…`) from memory, in the precompressed encoding the
 * request accepts, with one write; returns false for any other request (the web handler serves it).
 *
 * Why: the static files adapter-node serves are streamed from disk, which takes several turns of the event loop. A
 * page's first script competes with the page's own data: the map read computed cold holds the loop, and a
 * streamed script waited for all of it before the page could start. Answered from memory, the script is written as
 * soon as its request is read. The build's files are read once, at start, with their compressed copies.
 */
export function immutableAssets(clientDir: string): (req: IncomingMessage, res: ServerResponse) => boolean {
  const root = join(clientDir, IMMUTABLE_DIR);
  const assets = new Map<string, Asset>();
  const exists = statSync(root, { throwIfNoEntry: false })?.isDirectory() ?? false;
  for (const file of exists ? filesUnder(root) : []) {
    if (file.endsWith('.br') || file.endsWith('.gz') || file.endsWith('.map')) continue;
    const type = CONTENT_TYPES[extname(file)] ?? 'application/octet-stream';
    const compressed = (suffix: string, encoding: string) =>
      statSync(file + suffix, { throwIfNoEntry: false }) ? variant(file + suffix, type, encoding) : undefined;
    const path = `/${IMMUTABLE_DIR}/${relative(root, file).split(sep).join('/')}`;
    assets.set(path, {
      identity: variant(file, type, undefined),
      br: compressed('.br', 'br'),
      gzip: compressed('.gz', 'gzip'),
    });
  }
  return (req, res) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.headers.range) return false;
    const url = req.url ?? '';
    const query = url.indexOf('?');
    const asset = assets.get(query < 0 ? url : url.slice(0, query));
    if (!asset) return false;
    const accepted = req.headers['accept-encoding'] ?? '';
    const chosen =
      (asset.br && /\bbr\b/.test(accepted) && asset.br) ||
      (asset.gzip && /\bgzip\b/.test(accepted) && asset.gzip) ||
      asset.identity;
    res.writeHead(200, chosen.headers);
    res.end(req.method === 'HEAD' ? undefined : chosen.body);
    return true;
  };
}
