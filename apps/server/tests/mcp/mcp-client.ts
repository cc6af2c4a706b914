import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { vi } from 'vitest';
import type { MapSnapshot } from '../../src/mcp/map-snapshot.ts';

/** A tool's structured content; tests check its shape with assertions. */
// biome-ignore lint/suspicious/noExplicitAny: loose JSON, checked by the assertions that read it
export type ToolData = Record<string, any>;

/** Connects the SDK's real client to `baseUrl`/mcp over Streamable HTTP, with a bearer token when given. */
export async function connectOverHttp(baseUrl: string, token: string | null): Promise<Client> {
  const client = new Client({ name: 'thinkingmap-tests', version: '0.0.0' });
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), { requestInit: { headers } }));
  return client;
}

/** Starts the stdio command as a child process (`pnpm --silent … mcp:stdio`) and connects to it. */
export async function connectOverStdio(env: Record<string, string>, cwd: string): Promise<Client> {
  const client = new Client({ name: 'thinkingmap-tests', version: '0.0.0' });
  const transport = new StdioClientTransport({
    command: 'pnpm',
    args: ['--silent', '--filter', '@thinkingmap/server', 'mcp:stdio'],
    cwd,
    env,
    stderr: 'pipe',
  });
  const lines: string[] = [];
  transport.stderr?.on('data', (chunk: Buffer) => lines.push(chunk.toString()));
  try {
    await client.connect(transport);
  } catch (error) {
    throw new Error(`the stdio server did not start: ${(error as Error).message}\n${lines.join('')}`);
  }
  return client;
}

/** A tool error as the tools report it. */
export interface ToolFailure {
  code: string;
  message: string;
  field?: string;
}

/** Calls a tool and returns its structured content; a tool error fails with its code and message. */
export async function callTool<T = ToolData>(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<T> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  return result.structuredContent as T;
}

/** Calls a tool that must fail, and returns its error (fails the test when the tool succeeds). */
export async function toolFailure(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<ToolFailure & { text: string }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (!result.isError)
    throw new Error(`${name} should have failed but returned ${JSON.stringify(result.structuredContent)}`);
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
  return { ...(result.structuredContent as { error: ToolFailure }).error, text };
}

/**
 * Calls a tool with arguments its advertised JSON schema refuses (a value outside an enum, a wrong type) and
 * returns the SDK's error text: such calls never reach the tool, so they carry no domain code.
 */
export async function schemaRefusal(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (!result.isError) throw new Error(`${name} should have been refused but returned ${JSON.stringify(result)}`);
  if (result.structuredContent)
    throw new Error(`${name} reached the tool: ${JSON.stringify(result.structuredContent)}`);
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}

/** Calls get_map until `check` accepts the map (bounded), so tests follow agents that run in the background. */
export async function waitForMap<T>(
  client: Client,
  mapId: string,
  check: (map: MapSnapshot) => T | null | undefined | false,
  what: string,
  timeoutMs = 15_000,
): Promise<T> {
  let last: MapSnapshot | null = null;
  try {
    // get_map itself waits (up to a second) for the map's agents to settle before it answers.
    return await vi.waitFor(
      async () => {
        last = await callTool<MapSnapshot>(client, 'get_map', { mapId, waitSeconds: 1 });
        const value = check(last);
        if (!value) throw new Error('not yet');
        return value;
      },
      { timeout: timeoutMs, interval: 20 },
    );
  } catch {
    const seen = last as MapSnapshot | null;
    throw new Error(
      `timed out waiting for ${what}; runs: ${JSON.stringify(seen?.runs)}; pending: ${JSON.stringify(seen?.pendingQuestions)}`,
    );
  }
}
