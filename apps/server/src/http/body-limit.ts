import type { IncomingMessage } from 'node:http';

/** The request bodies the server reads at most by default (1 MB). */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** The body was larger than allowed. */
export class BodyTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`Request body limit of ${maxBytes} bytes exceeded.`);
  }
}

/**
 * Reads a request's body, at most `maxBytes` of it: a `Content-Length` above the limit is refused before anything
 * is read, a longer chunked body as soon as it passes the limit. So one request can never make the server hold more
 * than the limit in memory, whatever it claims.
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.reject(new BodyTooLargeError(maxBytes));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        req.off('data', onData);
        req.pause();
        reject(new BodyTooLargeError(maxBytes));
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks)));
    req.once('error', reject);
  });
}
