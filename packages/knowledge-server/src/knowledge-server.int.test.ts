import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KnowledgeIndex } from './knowledge-index.ts';
import { serveHttp } from './serve-http.ts';
import { expectBilingualRetrieval } from './testing/expect-bilingual-retrieval.ts';
import { BIN, spawnHttpServer } from './testing/spawn-http-server.ts';
import { copyKnowledgeFolder } from './testing/temp-knowledge-folder.ts';

let folder: string;
let remove: () => Promise<void>;
beforeAll(async () => ({ folder, remove } = await copyKnowledgeFolder()));
afterAll(() => remove());

const newClient = () => new Client({ name: 'knowledge-server-test', version: '1.0.0' });

describe('the knowledge server over stdio', () => {
  it('should answer the SDK client in Chinese and English with exact sources, and see a changed file', async () => {
    const client = newClient();
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, '--stdio', '--folder', folder],
        stderr: 'ignore',
      }),
    );
    try {
      await expectBilingualRetrieval(client, folder);
      await writeFile(join(folder, 'fresh.md'), '# 新发现\n\n蝴蝶效应说明初始条件的微小变化会被放大。\n');
      const result = await client.callTool({ name: 'knowledge_search', arguments: { query: '蝴蝶效应' } });
      expect(result.structuredContent).toMatchObject({ results: [{ path: 'fresh.md', startLine: 1, endLine: 3 }] });
    } finally {
      await client.close();
    }
  });
});

describe('the knowledge server over Streamable HTTP', () => {
  it('should answer the SDK client when run as its own process', async () => {
    const { url, child } = await spawnHttpServer(folder);
    const client = newClient();
    try {
      await client.connect(new StreamableHTTPClientTransport(url));
      await expectBilingualRetrieval(client, folder);
    } finally {
      await client.close();
      child.kill();
    }
  });

  it('should answer domain_knowledge in process, and refuse GET since it keeps no sessions', async () => {
    const running = await serveHttp(new KnowledgeIndex(folder), { port: 0 });
    const client = newClient();
    try {
      await client.connect(new StreamableHTTPClientTransport(running.url));
      const result = await client.callTool({
        name: 'domain_knowledge',
        arguments: { domain: '产品规划', topic: '指标' },
      });
      expect(result.structuredContent).toMatchObject({
        documents: [{ path: 'product-planning.md' }],
        passages: [{ path: 'product-planning.md', headings: ['产品规划方法', '衡量结果'] }],
      });
      expect((await fetch(running.url)).status).toBe(405);
      expect((await fetch(new URL('/other', running.url), { method: 'POST' })).status).toBe(404);
    } finally {
      await client.close();
      await running.close();
    }
  });
});
