import { type McpKnowledge, mcpServersConfigSchema } from '@thinkingmap/agent-core';
import { type HttpKnowledgeServer, startHttpKnowledgeServer } from '@thinkingmap/agent-core/testing';
import { NODE, REPLY_TO_AGENT } from '@thinkingmap/client';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultMcpConfig } from '../../src/runs/default-mcp-config.ts';
import { startKnowledge } from '../../src/runs/start-knowledge.ts';
import { processRootUntilReview, waitForRun } from '../helpers/agent-driver.ts';
import { startScriptedModel } from '../helpers/scripted-model-server.ts';
import { call, startTestServer } from '../helpers/test-server.ts';

interface Message {
  kind: string;
  content: string;
  metadata: { sources?: { server: string; path?: string }[] };
}

/** The built-in knowledge server (stdio child) plus `wiki`, a Streamable HTTP server in this process. */
async function builtInAndWiki(wiki: HttpKnowledgeServer, log: (line: string) => void): Promise<McpKnowledge> {
  const builtIn = defaultMcpConfig();
  const config = mcpServersConfigSchema.parse({
    ...builtIn,
    timeoutMs: 3_000,
    // Starting the built-in server's process is slow on a loaded machine; the test is about a server dying later.
    connectTimeoutMs: 20_000,
    mcpServers: { ...builtIn.mcpServers, wiki: { url: wiki.url } },
  });
  return (await startKnowledge({ config, log })) as McpKnowledge;
}

describe('knowledge retrieval through the API: a server dying mid-run', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('should finish the run with the live server when an HTTP knowledge server dies after it started', async () => {
    const wiki = await startHttpKnowledgeServer({ name: 'wiki' });
    cleanups.push(() => wiki.close());
    const logged: string[] = [];
    const knowledge = await builtInAndWiki(wiki, (line) => logged.push(line));
    cleanups.push(() => knowledge.close());
    expect(knowledge.status.map((s) => [s.name, s.state])).toEqual([
      ['knowledge', 'ready'],
      ['wiki', 'ready'],
    ]);
    const model = await startScriptedModel({
      // The run has started and the knowledge steps are next: take the wiki away now.
      intent_decision: () => {
        wiki.kill();
        return { intent: 'CONCLUDE', reason: '可以直接回答', confidence: 0.8 };
      },
      tool_choice: () => ({ tool: null, arguments: {}, why: '检索已足够' }),
      conclusion_draft: () => ({
        kind: 'ANALYTICAL',
        conclusion: '按影响排序。',
        keyPoints: ['影响'],
        confidence: 0.7,
      }),
    });
    cleanups.push(() => model.server.close());
    const server = await startTestServer('sqlite', { knowledge: knowledge.port, model: model.model });
    cleanups.push(() => server.close());
    const { client } = server.connect(server.alice.token);

    const { map, root, run, review } = await processRootUntilReview(client, '如何确定路线图的优先级？');
    await call(client, REPLY_TO_AGENT, { input: { requestId: review.requestId, accept: true } });
    await waitForRun(client, map.id, run.id, ['COMPLETED']);

    const node = await call(client, NODE, { id: root.id });
    expect(node.status).toBe('COMPLETED');
    const conclude = (node.conversations as { kind: string; messages: Message[] }[]).find(
      (c) => c.kind === 'CONCLUDE',
    )!;
    const notices = conclude.messages.filter((m) => m.kind === 'NOTICE');
    expect(notices.map((m) => m.content)).toEqual([expect.stringMatching(/MCP server "wiki" is unavailable/)]);
    const rag = conclude.messages.filter((m) => m.kind === 'RAG');
    expect(rag.length).toBeGreaterThan(0);
    expect(rag.map((m) => m.metadata.sources?.[0]?.server)).not.toContain('wiki');
    expect(rag.some((m) => m.content.includes('路线图'))).toBe(true);
    expect(logged.join('\n')).toContain('knowledge: MCP server "wiki" is unavailable');
  });
});
