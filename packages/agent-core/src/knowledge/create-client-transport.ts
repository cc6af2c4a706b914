import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isStdioEntry, type McpServerEntry } from './mcp-servers-config.ts';

/** A transport for `entry` plus a way to read the end of a stdio server's stderr for failure notices. */
export interface ClientTransport {
  transport: Transport;
  /** The last lines the server wrote to stderr (stdio only), empty otherwise. */
  stderrTail(): string;
}

const TAIL_CHARS = 600;

/**
 * Builds a fresh client transport for a server entry: a child process for stdio (its stderr captured so
 * a crash can be explained), or a Streamable HTTP transport sending the configured headers.
 */
export function createClientTransport(entry: McpServerEntry): ClientTransport {
  if (!isStdioEntry(entry)) {
    const transport = new StreamableHTTPClientTransport(new URL(entry.url), {
      requestInit: { headers: entry.headers },
    });
    return { transport, stderrTail: () => '' };
  }
  const transport = new StdioClientTransport({
    command: entry.command,
    args: entry.args,
    env: { ...getDefaultEnvironment(), ...entry.env },
    ...(entry.cwd ? { cwd: entry.cwd } : {}),
    stderr: 'pipe',
  });
  let tail = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-TAIL_CHARS);
  });
  return { transport, stderrTail: () => tail.trim() };
}
