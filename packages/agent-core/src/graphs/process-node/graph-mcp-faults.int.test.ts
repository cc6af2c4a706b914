import { MemorySaver } from '@langchain/langgraph';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpKnowledge, type McpKnowledge } from '../../knowledge/create-mcp-knowledge.ts';
import { parseMcpConfig } from '../../knowledge/load-mcp-config.ts';
import { FIXTURE_SCRIPT, fixtureEnv } from '../../knowledge/testing/fixture-servers.ts';
import type { StructuredRequest, StructuredResult } from '../../ports/model-port.ts';
import { type HttpKnowledgeServer, startHttpKnowledgeServer } from '../../testing/http-knowledge-server.ts';
import { ScriptedModel } from '../../testing/scripted-model.ts';
import { answers, cafeMap, pendingQuestion, processGraph, reply } from './graph.test-helpers.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

/** A scripted model that kills a server while it recognises the intent: after the run started, before retrieval. */
class ServerKillingModel extends ScriptedModel {
  constructor(
    script: ConstructorParameters<typeof ScriptedModel>[0],
    private readonly victim: HttpKnowledgeServer,
  ) {
    super(script);
  }

  override async structured<T>(request: StructuredRequest<T>): Promise<StructuredResult<T>> {
    if (request.agent === 'intent') this.victim.kill();
    return super.structured(request);
  }
}

/** A stdio fixture server (`local`, a child process) and an in-process HTTP server (`wiki`), both ready. */
async function twoServers(): Promise<{ knowledge: McpKnowledge; wiki: HttpKnowledgeServer }> {
  const wiki = await startHttpKnowledgeServer({ name: 'wiki' });
  cleanups.push(() => wiki.close());
  const config = parseMcpConfig({
    timeoutMs: 3_000,
    connectTimeoutMs: 3_000,
    mcpServers: {
      local: { command: process.execPath, args: [FIXTURE_SCRIPT, '--stdio'], env: fixtureEnv({ name: 'local' }) },
      wiki: { url: wiki.url },
    },
  });
  const knowledge = await createMcpKnowledge(config);
  cleanups.push(() => knowledge.close());
  expect(knowledge.status.map((s) => [s.name, s.state])).toEqual([
    ['local', 'ready'],
    ['wiki', 'ready'],
  ]);
  return { knowledge, wiki };
}

const config = { configurable: { thread_id: 'run-1' } };
const serverOf = (message: { metadata: Record<string, unknown> | null }) =>
  (message.metadata?.sources as { server: string }[] | undefined)?.[0]?.server;

describe('node processing: a knowledge server killed during the run', () => {
  it('should conclude with what the live server found and post a notice for the killed one', async () => {
    const { store, root } = await cafeMap();
    const { knowledge, wiki } = await twoServers();
    const model = new ServerKillingModel(
      {
        intent: [answers.intent('CONCLUDE')],
        conclude: [answers.tool('domain_knowledge', { domain: 'retail' }), answers.draft('Open it.')],
      },
      wiki,
    );
    const { graph } = processGraph(store, model, { knowledge: knowledge.port, checkpointer: new MemorySaver() });

    const question = pendingQuestion(await graph.invoke({ nodeId: root.id }, config));
    expect(question.kind).toBe('review-conclusion');
    const done = await graph.invoke(reply({ action: 'accept' }), config);

    expect(done.outcome).toBe('CONCLUDED');
    expect(wiki.requests.length).toBeGreaterThan(0);
    const conclude = store.messages.filter((m) => m.conversation === 'CONCLUDE');
    const notices = conclude.filter((m) => m.kind === 'NOTICE').map((m) => m.content);
    // One for the search, one for domain_knowledge: both asked the killed server too.
    expect(notices).toEqual([
      expect.stringMatching(/MCP server "wiki" is unavailable/),
      expect.stringMatching(/MCP server "wiki" is unavailable/),
    ]);
    const rag = conclude.filter((m) => m.kind === 'RAG');
    expect(rag.map((m) => m.content)).toEqual(
      expect.arrayContaining([expect.stringContaining('local says about'), expect.stringContaining('local on retail')]),
    );
    expect(rag.map(serverOf)).not.toContain('wiki');
  });

  it('should post a notice in the explore conversation when a server dies before the search', async () => {
    const { store, root } = await cafeMap();
    const { knowledge, wiki } = await twoServers();
    const model = new ServerKillingModel(
      {
        intent: [answers.intent('EXPLORE'), answers.intent('CONCLUDE')],
        explore: [answers.tool(null)],
        conclude: [answers.tool(null), answers.draft('Open it.')],
      },
      wiki,
    );
    const { graph } = processGraph(store, model, { knowledge: knowledge.port });
    pendingQuestion(await graph.invoke({ nodeId: root.id }, config));

    const explored = store.messages.filter((m) => m.conversation === 'DECOMPOSE');
    expect(explored.filter((m) => m.kind === 'NOTICE').map((m) => m.content)).toEqual([
      expect.stringMatching(/^The knowledge source could not be reached\. \(MCP knowledge: MCP server "wiki"/),
    ]);
    expect(explored.filter((m) => m.kind === 'RAG').map(serverOf)).toEqual(['local', 'local']);
  });
});
