#!/usr/bin/env node
// A scripted MCP knowledge server for the client manager's tests, run as a child process:
//   node fixture-mcp-server.mjs --stdio | --http PORT
// Behaviour comes from the environment: FIXTURE_NAME (appears in result paths), FIXTURE_DELAY_MS (answer
// late), FIXTURE_MODE=ok|error (error: tools answer isError), FIXTURE_CRASH_MARKER (exit on the first call
// unless that file exists, creating it: a server that crashes once mid-run and works after a respawn).
import { existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import * as z from 'zod';

const name = process.env.FIXTURE_NAME ?? 'fixture';
const delayMs = Number(process.env.FIXTURE_DELAY_MS ?? 0);
const mode = process.env.FIXTURE_MODE ?? 'ok';
const crashMarker = process.env.FIXTURE_CRASH_MARKER;

async function answer(text, structured) {
  if (crashMarker && !existsSync(crashMarker)) {
    writeFileSync(crashMarker, 'crashed');
    process.exit(1);
  }
  // unref: a slow answer must not keep the process alive once the client hangs up.
  await new Promise((resolve) => setTimeout(resolve, delayMs).unref());
  if (mode === 'error') return { isError: true, content: [{ type: 'text', text: `${name} index is corrupt` }] };
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

function createFixtureServer() {
  const server = new McpServer({ name, version: '1.0.0' });
  const readOnly = { readOnlyHint: true };
  server.registerTool(
    'knowledge_search',
    {
      inputSchema: { query: z.string(), context: z.string().optional(), max_results: z.number().default(5) },
      annotations: readOnly,
    },
    ({ query, max_results }) => {
      const results = Array.from({ length: Math.min(2, max_results) }, (_, i) => ({
        path: `${name}/doc-${i + 1}.md`,
        title: `${name} doc ${i + 1}`,
        headings: ['Section'],
        startLine: 10 * i + 1,
        endLine: 10 * i + 4,
        snippet: `${name} says about ${query} (${i + 1})`,
        score: 1 - i / 2,
      }));
      return answer(`${results.length} results`, { query, results });
    },
  );
  server.registerTool(
    'domain_knowledge',
    { inputSchema: { domain: z.string(), topic: z.string().optional() }, annotations: readOnly },
    ({ domain }) =>
      answer(`about ${domain}`, {
        domain,
        documents: [],
        passages: [
          {
            path: `${name}/${domain}.md`,
            title: domain,
            headings: [],
            startLine: 1,
            endLine: 2,
            snippet: `${name} on ${domain}`,
            score: 1,
          },
        ],
      }),
  );
  return server;
}

if (process.argv[2] === '--stdio') {
  await createFixtureServer().connect(new StdioServerTransport());
  // The client closes stdin to stop a stdio server (the MCP spec's shutdown): leave then, as a real server does.
  process.stdin.once('end', () => process.exit(0));
} else {
  const http = createServer(async (req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405).end();
    const server = createFixtureServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => void server.close());
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  http.listen(Number(process.argv[3] ?? 0), '127.0.0.1', () =>
    process.stderr.write(`listening ${http.address().port}\n`),
  );
}
