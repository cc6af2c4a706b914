import type { IncomingMessage, ServerResponse } from 'node:http';
import { refuseJsonRpc as refuse, serveStatelessMcp } from '@thinkingmap/mcp-http';
import { type IdentityOptions, parseBearer, resolveAccess } from '../auth/viewer.ts';
import type { Access } from '../commands/access.ts';
import { DomainError } from '../commands/domain-errors.ts';
import { BodyTooLargeError, readBody } from '../http/body-limit.ts';
import { createThinkingMapMcpServer } from './create-mcp-server.ts';
import type { McpContext } from './mcp-context.ts';

/** The path the API server serves MCP on. */
export const MCP_PATH = '/mcp';

/** Whether a request is for the MCP endpoint (query string allowed). */
export const isMcpRequest = (url: string | undefined) => url === MCP_PATH || !!url?.startsWith(`${MCP_PATH}?`);

/** What the MCP endpoint needs from the API server. */
export interface McpHttpOptions {
  identity: IdentityOptions;
  /** The context of the tools for a caller (same command layer and runs as GraphQL). */
  contextFor(access: Access): McpContext;
  /** Where unexpected errors are logged; the client only sees "Unexpected error.". */
  logError: (error: unknown) => void;
  /** Largest request body read, in bytes. */
  maxBodyBytes: number;
}

/** Reads and parses a POST's JSON body within the limit; answers the refusal itself and returns undefined. */
async function readJson(
  req: IncomingMessage,
  res: ServerResponse,
  maxBytes: number,
): Promise<{ body: unknown } | undefined> {
  try {
    return { body: JSON.parse((await readBody(req, maxBytes)).toString('utf8')) };
  } catch (error) {
    if (error instanceof BodyTooLargeError) refuse(res, 413, error.message, { connection: 'close' });
    else refuse(res, 400, 'Parse error: the body is not JSON.');
    return undefined;
  }
}

/**
 * Serves ThinkingMap's MCP server over Streamable HTTP, stateless: every POST is authorised by the same
 * bearer tokens as GraphQL (401 with `WWW-Authenticate: Bearer` when the token is missing and required, or
 * invalid), then gets its own MCP server acting as that caller. No session means nothing to expire and
 * nothing to share between server instances; GET and DELETE answer 405 as the specification allows.
 * Origins and hosts are checked before (security/request-guard.ts), bodies are read within the size limit.
 */
export function createMcpHttpHandler(options: McpHttpOptions) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    let access: Access;
    try {
      access = await resolveAccess(parseBearer(req.headers.authorization), options.identity);
    } catch (error) {
      if (error instanceof DomainError)
        return refuse(res, 401, error.message, { 'www-authenticate': 'Bearer realm="thinkingmap"' });
      options.logError(error);
      return refuse(res, 500, 'Unexpected error.');
    }
    const parsed = req.method === 'POST' ? await readJson(req, res, options.maxBodyBytes) : { body: undefined };
    if (!parsed) return;
    await serveStatelessMcp(req, res, () => createThinkingMapMcpServer(options.contextFor(access)), {
      jsonResponse: true,
      onError: options.logError,
      parsedBody: parsed.body,
    });
  };
}
