import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Database } from '@thinkingmap/db';
import { type IdentityOptions, parseBearer, resolveAccess } from '../auth/viewer.ts';
import { DomainError, ForbiddenError, NotFoundError, ValidationError } from '../commands/domain-errors.ts';
import type { FileNotes } from './file-notes.ts';
import { NOTES_ROUTE } from './note-download.ts';

const STATUS: Record<string, number> = {
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  VALIDATION: 400,
};

/** Whether a request is for the notes download route (read from the raw URL: `..` is not resolved away). */
export const isNotesRequest = (url: string | undefined) => !!url?.startsWith(NOTES_ROUTE);

/**
 * `GET /notes/<mapId>/<path>`: a map's note as a Markdown attachment. Authenticated as the API (a bearer
 * token, or the embedded default's local user); only the map's owner may read it. The path is taken from the
 * raw request URL, each segment URL-decoded, then checked by the notes folder's own rules: traversal (`..`),
 * absolute paths and symbolic links are refused with a JSON error `{ error: { code, message, field } }`, as
 * the API's typed errors are (400, 401, 403, 404, 405).
 */
export function createNotesRoute(options: {
  db: Database;
  notes: FileNotes;
  identity: IdentityOptions;
  logError: (error: unknown) => void;
}) {
  const fail = (res: ServerResponse, error: DomainError) => {
    res.writeHead(STATUS[error.code] ?? 400, { 'content-type': 'application/json; charset=utf-8' });
    const field = error instanceof ValidationError ? error.field : undefined;
    res.end(JSON.stringify({ error: { code: error.code, message: error.message, ...(field ? { field } : {}) } }));
  };
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ error: { code: 'VALIDATION', message: 'notes are read with GET' } }));
        return;
      }
      const access = await resolveAccess(parseBearer(req.headers.authorization), options.identity);
      const raw = (req.url ?? '').slice(NOTES_ROUTE.length).split('?')[0] ?? '';
      let segments: string[];
      try {
        segments = raw.split('/').map((s) => decodeURIComponent(s));
      } catch {
        throw new ValidationError('path', 'is not a valid URL path');
      }
      const [mapId = '', ...rest] = segments;
      const path = rest.join('/');
      if (!mapId || !path) throw new ValidationError('path', 'give /notes/<mapId>/<path>');
      const map = /^[a-z0-9]+$/i.test(mapId)
        ? await options.db.read.map.findUnique({ where: { id: mapId }, select: { ownerId: true } })
        : null;
      if (!map) throw new NotFoundError('Map', mapId.slice(0, 40));
      if (map.ownerId !== access.viewer.id) throw new ForbiddenError('Map', mapId);
      const content = await options.notes.read(mapId, path);
      const name = rest.at(-1) ?? 'note.md';
      const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
      res.writeHead(200, {
        'content-type': 'text/markdown; charset=utf-8',
        'content-length': Buffer.byteLength(content),
        'content-disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`,
        'x-content-type-options': 'nosniff',
        'cache-control': 'private, no-store',
      });
      res.end(req.method === 'HEAD' ? undefined : content);
    } catch (error) {
      if (error instanceof DomainError) return fail(res, error);
      options.logError(error);
      if (res.headersSent) return void res.destroy();
      res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ error: { code: 'INTERNAL', message: 'Unexpected error.' } }));
    }
  };
}
