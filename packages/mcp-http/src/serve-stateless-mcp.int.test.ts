import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type StatelessMcpOptions, serveStatelessMcp } from './serve-stateless-mcp.ts';

/** An MCP server with one tool that echoes, and counts how many servers were created. */
function echoServerFactory() {
  const made = { count: 0 };
  const factory = () => {
    made.count += 1;
    const server = new McpServer({ name: 'echo', version: '1.0.0' });
    server.registerTool('echo', { inputSchema: { text: z.string() } }, ({ text }) => ({
      content: [{ type: 'text', text }],
    }));
    return server;
  };
  return { made, factory };
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function listen(factory: () => McpServer, options?: StatelessMcpOptions): Promise<URL> {
  const http = createServer((req, res) => void serveStatelessMcp(req, res, factory, options));
  servers.push(http);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
}

describe('serveStatelessMcp', () => {
  it.each([false, true])(
    'should answer tool calls with a fresh server per request (JSON response: %s)',
    async (json) => {
      const { made, factory } = echoServerFactory();
      const url = await listen(factory, { jsonResponse: json });
      const client = new Client({ name: 'test', version: '0' });
      await client.connect(new StreamableHTTPClientTransport(url));
      const result = await client.callTool({ name: 'echo', arguments: { text: 'hello' } });
      expect(result.content).toEqual([{ type: 'text', text: 'hello' }]);
      await client.close();
      // initialize, initialized, tools/call: three POSTs, three servers, no session kept between them.
      expect(made.count).toBeGreaterThanOrEqual(3);
    },
  );

  it('should refuse GET and DELETE with 405, naming POST', async () => {
    const url = await listen(echoServerFactory().factory);
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(url, { method });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
    }
  });

  it('should answer 500 "Unexpected error." and report the cause when serving fails', async () => {
    const reported: unknown[] = [];
    const broken = () => {
      const server = new McpServer({ name: 'broken', version: '1.0.0' });
      server.connect = () => Promise.reject(new Error('transport refused'));
      return server;
    };
    const url = await listen(broken, { onError: (error) => reported.push(error) });
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ error: { message: 'Unexpected error.' } });
    expect(reported).toEqual([new Error('transport refused')]);
  });
});
