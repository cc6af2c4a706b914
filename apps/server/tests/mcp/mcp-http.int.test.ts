import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { logicProviders } from '@thinkingmap/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NodeSummary, QuestionSummary, RunSummary } from '../../src/mcp/map-snapshot.ts';
import { startScriptedModel } from '../helpers/scripted-model-server.ts';
import { startTestServer, type TestServer } from '../helpers/test-server.ts';
import { callTool, connectOverHttp, toolFailure, waitForMap } from './mcp-client.ts';

const providers = logicProviders;

/** A cooperative model for a café map: the root decomposes, the children conclude, the context is used. */
function cafeScript() {
  return {
    problem_understanding: () => ({
      title: '开咖啡店',
      problem: '是否在大学城开一家咖啡店',
      goal: '在六月前做出决定',
      constraints: ['预算 50 万'],
    }),
    intent_decision: (prompt: string) => {
      const child = prompt.includes('客流有多大') || prompt.includes('房租多少');
      return { intent: child ? 'CONCLUDE' : 'DECOMPOSE', reason: '按脚本', confidence: 0.9 };
    },
    strategy_decision: () => ({
      strategy: 'SEQUENTIAL',
      factors: [{ factor: '依赖', assessment: '房租取决于客流' }],
      reason: '先客流后房租',
    }),
    sub_question_proposal: () => ({
      rationale: '先看客流再看房租',
      subQuestions: [
        { key: 'q1', question: '客流有多大？', goal: '估算每天的客人', dependsOn: [] },
        { key: 'q2', question: '房租多少？', goal: '找到可负担的铺面', dependsOn: ['q1'] },
      ],
    }),
    conclusion_draft: (prompt: string, call: number) => {
      const text =
        call === 1
          ? prompt.includes('周边有三所大学')
            ? '客流充足：周边有三所大学。'
            : '客流未知。'
          : '值得开：客流充足，房租可负担。';
      return { kind: 'DECISION', conclusion: text, keyPoints: [text], confidence: 0.8 };
    },
  };
}

describe.each(providers)('ThinkingMap as an MCP server over Streamable HTTP on %s', (provider) => {
  let server: TestServer;
  let model: Awaited<ReturnType<typeof startScriptedModel>>;
  let alice: Client;

  beforeAll(async () => {
    model = await startScriptedModel(cafeScript());
    server = await startTestServer(provider, { model: model.model });
    alice = await connectOverHttp(server.app.url(), server.alice.token);
  });
  afterAll(async () => {
    await alice?.close();
    await server?.close();
    await model?.server.close();
  });

  it('should drive a map from problem to conclusion through MCP tools only', async () => {
    const tools = (await alice.listTools()).tools.map((tool) => tool.name);
    expect(tools).toEqual(
      expect.arrayContaining([
        'create_map',
        'get_map',
        'list_maps',
        'process_node',
        'reply_to_agent',
        'add_context',
        'conclude_node',
      ]),
    );

    // Problem understanding asks to confirm the restatement; accepting creates the root.
    const created = await callTool(alice, 'create_map', { problem: '我想开一家咖啡店，值得吗？' });
    expect(created.map).toMatchObject({ title: '我想开一家咖啡店，值得吗？', language: 'zh' });
    const mapId = created.map.id as string;
    const confirm = created.pendingQuestions.find((q: QuestionSummary) => q.kind === 'confirm-understanding');
    expect(confirm.context.understanding?.problem ?? JSON.stringify(confirm.context)).toContain('大学城');
    const understood = await callTool(alice, 'reply_to_agent', { requestId: confirm.requestId, accept: true });
    expect(understood.run).toMatchObject({ agent: 'understand-problem', status: 'COMPLETED' });
    let map = await callTool(alice, 'get_map', { mapId });
    // The confirmed restatement is recorded, its title included.
    expect(map).toMatchObject({
      title: '开咖啡店',
      goal: '在六月前做出决定',
      constraints: ['预算 50 万'],
      pendingQuestions: [],
    });
    expect(map.nodes).toHaveLength(1);
    const rootId = map.nodes[0].id as string;

    // The root decomposes; approving the proposal creates two children, the second waiting for the first.
    const decomposing = await callTool(alice, 'process_node', { nodeId: rootId });
    const review = decomposing.pendingQuestions.find((q: QuestionSummary) => q.kind === 'review-decomposition');
    expect(review).toMatchObject({ nodeId: rootId, runId: decomposing.run.id });
    await callTool(alice, 'reply_to_agent', { requestId: review.requestId, accept: true });
    map = await waitForMap(alice, mapId, (m) => m.nodes.length === 3 && m, 'the approved children');
    const [, traffic, rent] = map.nodes;
    expect([traffic.question, rent.question]).toEqual(['客流有多大？', '房租多少？']);
    expect(rent).toMatchObject({ status: 'BLOCKED', dependsOn: [traffic.id] });

    // Context added over MCP reaches the agent that concludes the node.
    const added = await callTool(alice, 'add_context', {
      nodeId: traffic.id,
      title: '调研',
      content: '周边有三所大学',
    });
    expect(added.contextItem).toMatchObject({ nodeId: traffic.id, content: '周边有三所大学' });
    const concluding = await callTool(alice, 'process_node', { nodeId: traffic.id });
    const draft = concluding.pendingQuestions.find(
      (q: QuestionSummary) => q.kind === 'review-conclusion' && q.nodeId === traffic.id,
    );
    expect(JSON.stringify(draft.context)).toContain('客流充足：周边有三所大学。');
    await callTool(alice, 'reply_to_agent', { requestId: draft.requestId, accept: true });

    // The person concludes the second child by hand; the root's conclusion then starts by itself.
    await waitForMap(
      alice,
      mapId,
      (m) => m.nodes.find((n: NodeSummary) => n.id === rent.id)?.status === 'READY',
      'the rent node to be ready',
    );
    const concluded = await callTool(alice, 'conclude_node', {
      nodeId: rent.id,
      conclusion: '房租每月两万，可负担。',
      kind: 'DECISION',
    });
    expect(concluded.node).toMatchObject({ status: 'COMPLETED', conclusionKind: 'DECISION' });
    const rootReview = await waitForMap(
      alice,
      mapId,
      (m) => m.pendingQuestions.find((q: QuestionSummary) => q.kind === 'review-conclusion' && q.nodeId === rootId),
      "the root's conclusion",
    );
    const done = await callTool(alice, 'reply_to_agent', { requestId: rootReview.requestId, accept: true });
    expect(done.run.status).toBe('COMPLETED');

    map = await callTool(alice, 'get_map', { mapId, waitSeconds: 5 });
    expect(map.status).toBe('COMPLETED');
    expect(map.nodes.map((n: NodeSummary) => [n.status, n.conclusion])).toEqual([
      ['COMPLETED', '值得开：客流充足，房租可负担。'],
      ['COMPLETED', '客流充足：周边有三所大学。'],
      ['COMPLETED', '房租每月两万，可负担。'],
    ]);
    expect(map.runs.every((run: RunSummary) => run.status === 'COMPLETED')).toBe(true);

    // The same map as a Markdown resource, listed among the viewer's maps.
    const listed = await alice.listResources();
    expect(listed.resources.map((r) => r.uri)).toContain(`thinkingmap://maps/${mapId}`);
    const resource = await alice.readResource({ uri: `thinkingmap://maps/${mapId}` });
    const markdown = (resource.contents[0] as { text: string }).text;
    expect(resource.contents[0]?.mimeType).toBe('text/markdown');
    expect(markdown).toContain('# 开咖啡店');
    expect(markdown).toContain('> 值得开：客流充足，房租可负担。');
    expect(markdown).toContain('依赖: “客流有多大？”');
    expect(markdown).toContain('## 思考树');
    const text = (await alice.callTool({ name: 'get_map', arguments: { mapId } })).content as { text: string }[];
    expect(text[0]?.text).toBe(markdown);
    expect((await callTool(alice, 'list_maps')).maps[0]).toMatchObject({ id: mapId, status: 'COMPLETED' });
  });

  it('should bring a map in from an outline and out as a file through import_map and export_map', async () => {
    const outline = '# 开咖啡店\n\n- 客流有多大？\n  - 周边有几所大学？\n- 房租多少？\n';
    const imported = await callTool(alice, 'import_map', { format: 'MARKDOWN', content: outline });
    expect(imported).toMatchObject({ title: '开咖啡店', language: 'zh', nodes: 4 });
    const exported = await alice.callTool({ name: 'export_map', arguments: { mapId: imported.mapId, format: 'JSON' } });
    expect(exported.structuredContent).toMatchObject({ fileName: '开咖啡店.json', format: 'JSON' });
    const json = (exported.content as { text: string }[])[0]!.text;
    expect(JSON.parse(json).tree[0].children.map((n: { question: string }) => n.question)).toEqual([
      '客流有多大？',
      '房租多少？',
    ]);
    const again = await callTool(alice, 'import_map', { format: 'JSON', content: json, title: '开咖啡店（副本）' });
    const markdown = await alice.callTool({
      name: 'export_map',
      arguments: { mapId: again.mapId, format: 'MARKDOWN' },
    });
    expect((markdown.content as { text: string }[])[0]!.text).toContain('周边有几所大学？');
    const refused = await toolFailure(alice, 'import_map', { format: 'OPML', content: '<opml><body></body></opml>' });
    expect(refused).toMatchObject({ code: 'VALIDATION', field: 'opml/body' });
  });
});
