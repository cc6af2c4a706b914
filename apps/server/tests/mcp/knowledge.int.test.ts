import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type McpKnowledge, mcpServersConfigSchema } from '@thinkingmap/agent-core';
import { CREATE_MAP, CREATE_NODE, NODE, PROCESS_NODE } from '@thinkingmap/client';
import { repoDir } from '@thinkingmap/db';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultMcpConfig } from '../../src/runs/default-mcp-config.ts';
import { startKnowledge } from '../../src/runs/start-knowledge.ts';
import { processRootUntilReview, waitForQuestion } from '../helpers/agent-driver.ts';
import { startScriptedModel } from '../helpers/scripted-model-server.ts';
import { call, startTestServer, type TestServer } from '../helpers/test-server.ts';

/** A port on which nothing listens (taken, then released). */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Creates a map with one root node through the API and explores the root; returns the root's messages once the run asks the person something. */
async function exploreRoot(server: TestServer, question: string) {
  const { client } = server.connect(server.alice.token);
  const map = await call(client, CREATE_MAP, { input: { problem: question, understand: false } });
  const root = await call(client, CREATE_NODE, { input: { mapId: map.id, question } });
  const run = await call(client, PROCESS_NODE, { nodeId: root.id, intent: 'EXPLORE' });
  expect(run).toMatchObject({ __typename: 'AgentRun', status: 'RUNNING' });
  // Exploring goes back to intent recognition; the run carries on until it asks the person.
  await waitForQuestion(client, map.id, { nodeId: root.id });
  const node = await call(client, NODE, { id: root.id });
  return (
    node.conversations as {
      messages: {
        kind: string;
        role: string;
        content: string;
        metadata: { sources: { server: string; path: string; title: string; startLine: number; endLine: number }[] };
      }[];
    }[]
  ).flatMap((c) => c.messages);
}

describe('knowledge retrieval through the API', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('should post Chinese passages of the built-in knowledge server (stdio child) with file and line sources', async () => {
    const logged: string[] = [];
    const knowledge = (await startKnowledge({
      config: defaultMcpConfig(),
      log: (m) => logged.push(m),
    })) as McpKnowledge;
    cleanups.push(() => knowledge.close());
    expect(knowledge.status).toEqual([
      expect.objectContaining({
        name: 'knowledge',
        state: 'ready',
        tools: expect.arrayContaining(['knowledge_search']),
      }),
    ]);
    expect(logged.join('\n')).toMatch(/knowledge ready \(.*knowledge_search/);
    const server = await startTestServer('sqlite', { knowledge: knowledge.port });
    cleanups.push(() => server.close());

    const messages = await exploreRoot(server, '如何确定路线图的优先级？');
    const rag = messages.filter((m) => m.kind === 'RAG');
    expect(rag.length).toBeGreaterThan(0);
    const hit = rag.find((m) => m.content.includes('路线图'));
    expect(hit, `a passage about 路线图 among ${JSON.stringify(rag.map((m) => m.content.slice(0, 40)))}`).toBeTruthy();
    const source = hit!.metadata.sources[0]!;
    expect(source).toMatchObject({
      server: 'knowledge',
      path: 'product-planning.md',
      title: `product-planning.md:${source.startLine}-${source.endLine}`,
    });
    // The line range quotes the passage in the file itself.
    const lines = readFileSync(join(repoDir, 'knowledge', source.path), 'utf8').split('\n');
    expect(lines.slice(source.startLine - 1, source.endLine).join('\n')).toContain('路线图');
    expect(messages.some((m) => m.kind === 'NOTICE')).toBe(false);
  });

  it('should go on without a configured server that is down, and post a notice instead', async () => {
    const port = await closedPort();
    const config = mcpServersConfigSchema.parse({
      connectTimeoutMs: 1_000,
      timeoutMs: 1_000,
      mcpServers: { wiki: { url: `http://127.0.0.1:${port}/mcp` } },
    });
    const logged: string[] = [];
    const knowledge = (await startKnowledge({ config, log: (m) => logged.push(m) })) as McpKnowledge;
    cleanups.push(() => knowledge.close());
    expect(knowledge.status[0]?.state).not.toBe('ready');
    expect(logged.join('\n')).toContain('knowledge: wiki');
    const server = await startTestServer('sqlite', { knowledge: knowledge.port });
    cleanups.push(() => server.close());

    const messages = await exploreRoot(server, '如何确定路线图的优先级？');
    expect(messages.filter((m) => m.kind === 'RAG')).toEqual([]);
    const notice = messages.find((m) => m.kind === 'NOTICE');
    expect(notice?.content).toContain('无法连接知识来源');
  });

  it('should post passages with sources in the CONCLUDE conversation and give them to the conclusion agent', async () => {
    const knowledge = (await startKnowledge({ config: defaultMcpConfig() })) as McpKnowledge;
    cleanups.push(() => knowledge.close());
    const prompts: string[] = [];
    const model = await startScriptedModel({
      // Before drafting, the conclusion agent asks for the domain's knowledge too.
      tool_choice: () => ({
        tool: 'domain_knowledge',
        arguments: { domain: '产品规划', topic: '优先级' },
        why: '领域知识',
      }),
      conclusion_draft: (prompt) => {
        prompts.push(prompt);
        return { kind: 'ANALYTICAL', conclusion: '按影响和成本排序。', keyPoints: ['影响'], confidence: 0.7 };
      },
    });
    cleanups.push(() => model.server.close());
    const server = await startTestServer('sqlite', { knowledge: knowledge.port, model: model.model });
    cleanups.push(() => server.close());
    const { client } = server.connect(server.alice.token);
    const { root } = await processRootUntilReview(client, '如何确定路线图的优先级？', 'CONCLUDE');

    const node = await call(client, NODE, { id: root.id });
    const conclude = (
      node.conversations as {
        kind: string;
        messages: {
          kind: string;
          content: string;
          metadata: { tool?: string; sources: { server: string; path: string; title: string }[] };
        }[];
      }[]
    ).find((c) => c.kind === 'CONCLUDE')!;
    const rag = conclude.messages.filter((m) => m.kind === 'RAG');
    expect(rag.length).toBeGreaterThan(0);
    expect(rag.some((m) => m.content.includes('路线图'))).toBe(true);
    expect(rag[0]!.metadata.sources[0]).toMatchObject({ server: 'knowledge', path: expect.stringMatching(/\.md$/) });
    // Each passage is posted once: what domain_knowledge found again is not repeated, a notice says so.
    expect(new Set(rag.map((m) => m.content)).size).toBe(rag.length);
    const fromDomain = conclude.messages.filter((m) => m.metadata.tool === 'domain_knowledge');
    expect(fromDomain.length).toBeGreaterThan(0);
    for (const m of fromDomain)
      if (m.kind === 'RAG')
        expect(m.metadata.sources[0]).toMatchObject({ server: 'knowledge', path: 'product-planning.md' });
      else expect(m.content).toMatch(/^所选工具（domain_knowledge）找到的 \d+ 段内容上面已经列出。$/);
    expect(prompts[0]).toContain('检索到的知识');
    expect(prompts[0]).toContain('product-planning.md');
    expect(prompts[0]).toContain(rag[0]!.metadata.sources[0]!.title);
    // No source failed: the only notice may be the one saying the tool's passages are already above.
    expect(conclude.messages.filter((m) => m.kind === 'NOTICE' && m.metadata.tool !== 'domain_knowledge')).toEqual([]);
  });

  it('should call another configured tool the model chooses (domain_knowledge) and keep it as the source', async () => {
    const knowledge = (await startKnowledge({ config: defaultMcpConfig() })) as McpKnowledge;
    cleanups.push(() => knowledge.close());
    const offered: string[] = [];
    const model = await startScriptedModel({
      intent_decision: (_prompt, n) => ({
        intent: n === 1 ? 'EXPLORE' : 'CONCLUDE',
        reason: '先查资料',
        confidence: 0.8,
      }),
      tool_choice: (prompt) => {
        offered.push(prompt);
        return { tool: 'domain_knowledge', arguments: { domain: '产品规划' }, why: '需要产品规划的领域知识' };
      },
      conclusion_draft: () => ({
        kind: 'ANALYTICAL',
        conclusion: '先做影响大的。',
        keyPoints: ['影响'],
        confidence: 0.7,
      }),
    });
    cleanups.push(() => model.server.close());
    const server = await startTestServer('sqlite', { knowledge: knowledge.port, model: model.model });
    cleanups.push(() => server.close());
    const { client } = server.connect(server.alice.token);
    const { root } = await processRootUntilReview(client, '产品路线图怎么排？');

    expect(offered[0]).toContain('- domain_knowledge: ');
    const node = await call(client, NODE, { id: root.id });
    const messages = (
      node.conversations as {
        kind: string;
        messages: {
          kind: string;
          content: string;
          metadata: { tool?: string; sources?: { title: string; server: string; path?: string }[] };
        }[];
      }[]
    ).flatMap((c) => c.messages.map((m) => ({ ...m, conversation: c.kind })));
    // Passages about product planning, from the search or from the tool, each posted once per conversation.
    for (const kind of ['DECOMPOSE', 'CONCLUDE']) {
      const rag = messages.filter((m) => m.kind === 'RAG' && m.conversation === kind);
      expect(
        rag.some((m) => m.content.includes('产品')),
        kind,
      ).toBe(true);
      expect(new Set(rag.map((m) => m.content)).size, kind).toBe(rag.length);
      expect(rag[0]!.metadata.sources?.[0]).toMatchObject({
        server: 'knowledge',
        path: expect.stringMatching(/\.md$/),
      });
    }
    // Explore chose it, and so did the conclusion agent before drafting: its call shows in both conversations.
    expect(offered).toHaveLength(2);
    expect(new Set(messages.filter((m) => m.metadata.tool === 'domain_knowledge').map((m) => m.conversation))).toEqual(
      new Set(['DECOMPOSE', 'CONCLUDE']),
    );
  });

  it('should start without knowledge when the config file cannot be read', async () => {
    const logged: string[] = [];
    expect(
      await startKnowledge({ configPath: join(repoDir, 'no-such-mcp-servers.json'), log: (m) => logged.push(m) }),
    ).toBeNull();
    expect(logged.join('\n')).toMatch(/knowledge: not started: .*no-such-mcp-servers\.json/);
  });
});
