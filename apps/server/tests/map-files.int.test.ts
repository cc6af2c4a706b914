import { readFileSync } from 'node:fs';
import { VIEWER_EVENTS_FEED } from '@thinkingmap/client';
import { testProviders } from '@thinkingmap/db/testing';
import { print } from 'graphql';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openSubscriber, type Subscriber } from './helpers/subscription-transports.ts';
import { startTestServer, type TestServer } from './helpers/test-server.ts';

const providers = await testProviders();

const fixture = (name: string) =>
  readFileSync(new URL(`../../../packages/map-markdown/src/import/fixtures/${name}`, import.meta.url), 'utf8');

/** A GraphQL string literal of any text (JSON's escapes are GraphQL's). */
const literal = (value: string) => JSON.stringify(value);

const IMPORT_RESULT = `__typename ... on Map { id title language }
  ... on ImportError { code format where reason } ... on ValidationError { field reason }`;

interface FeedEvent {
  __typename: string;
  mapId: string;
  seq: number;
}

interface Tree {
  question: string;
  children: Tree[];
}

/** Replaces every id in an export by the order it first appears in, so two exports compare by what they hold. */
function withoutIds(document: string): unknown {
  const ids = new Map<string, string>();
  const named = (id: string) => ids.get(id) ?? ids.set(id, `#${ids.size + 1}`).get(id)!;
  return JSON.parse(document, (key, value) => {
    if (key === 'dependsOn') return value.map(named);
    if (typeof value !== 'string') return value;
    if (['id', 'parentId', 'runId', 'sourceMessageId'].includes(key)) return named(value);
    return value;
  });
}

describe.each(providers)('maps in and out through the API on %s', (provider) => {
  let server: TestServer;
  const subscribers: Subscriber[] = [];

  /** POSTs a document as any GraphQL client would, as `token` (Alice by default); answers `data`. */
  async function gql(query: string, variables?: Record<string, unknown>, token = server.alice.token) {
    const response = await fetch(server.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
    });
    const body = await response.json();
    expect(body.errors).toBeUndefined();
    return body.data;
  }

  const newMap = async (title: string) =>
    (await gql(`mutation { createMap(input: { title: ${literal(title)} }) { ... on Map { id } } }`)).createMap.id;

  /** The map's tree of questions, read back through `map(id) { nodes }`. */
  async function treeOf(mapId: string): Promise<Tree[]> {
    const { map } = await gql(`{ map(id: "${mapId}") { ... on Map { nodes { id parentId position question } } } }`);
    const nodes: { id: string; parentId: string | null; position: number; question: string }[] = map.nodes;
    const below = (parentId: string | null): Tree[] =>
      nodes
        .filter((n) => n.parentId === parentId)
        .sort((a, b) => a.position - b.position)
        .map((n) => ({ question: n.question, children: below(n.id) }));
    return below(null);
  }
  const shape = (trees: Tree[]): unknown[] =>
    trees.map((t) => (t.children.length ? [t.question, shape(t.children)] : t.question));

  const mapCount = async () => (await gql('{ maps { id } }')).maps.length;
  const importFile = async (format: string, content: string, extra = '') =>
    (
      await gql(
        `mutation { importMap(input: { format: ${format}, content: ${literal(content)} ${extra} }) { ${IMPORT_RESULT} } }`,
      )
    ).importMap;
  const exportFile = async (mapId: string, format: string) =>
    (await gql(`{ exportMap(mapId: "${mapId}", format: ${format}) { ... on MapFile { fileName mimeType content } } }`))
      .exportMap;

  beforeAll(async () => {
    server = await startTestServer(provider);
  });
  afterEach(() => {
    for (const subscriber of subscribers.splice(0)) subscriber.dispose();
  });
  afterAll(() => server?.close());

  it('should create 2,000 nodes in one request, one transaction and one change of the history', async () => {
    const mapId = await newMap('A large map');
    const nodes: { key: string; parentKey?: string; question: string }[] = [{ key: 'root', question: 'Root' }];
    for (let i = 0; i < 40; i++) {
      nodes.push({ key: `b${i}`, parentKey: 'root', question: `Branch ${i}` });
      for (let j = 0; j < 48; j++) nodes.push({ key: `b${i}.${j}`, parentKey: `b${i}`, question: `Leaf ${i}.${j}` });
    }
    nodes.push(
      ...Array.from({ length: 2_000 - nodes.length }, (_, i) => ({
        key: `x${i}`,
        parentKey: 'b0',
        question: `Extra ${i}`,
      })),
    );
    expect(nodes).toHaveLength(2_000);
    const started = performance.now();
    const { createNodes } = await gql(
      `mutation Batch($input: CreateNodesInput!) { createNodes(input: $input) {
        __typename ... on CreateNodesResult { nodes { key node { id parentId position } } } } }`,
      { input: { mapId, nodes } },
    );
    const seconds = (performance.now() - started) / 1000;
    console.info(`createNodes: 2,000 nodes on ${provider} in ${seconds.toFixed(2)} s`);
    expect(seconds).toBeLessThan(10);
    expect(createNodes.nodes.map((n: { key: string }) => n.key)).toEqual(nodes.map((n) => n.key));
    const byKey = new Map(createNodes.nodes.map((n: { key: string; node: unknown }) => [n.key, n.node]));
    expect(byKey.get('b3')).toMatchObject({ parentId: (byKey.get('root') as { id: string }).id, position: 3 });
    expect(byKey.get('b0.47')).toMatchObject({ position: 47 });
    expect(byKey.get('x0')).toMatchObject({ position: 48 });
    const { mapHistory } = await gql(`{ mapHistory(mapId: "${mapId}") { ... on MapHistory { changes { seq } } } }`);
    expect(mapHistory.changes).toHaveLength(2);
  });

  it('should refuse a batch with a wrong parent, naming the node, creating nothing, and undo a whole batch at once', async () => {
    const mapId = await newMap('Refused batches');
    const attempt = async (nodes: string) =>
      (
        await gql(`mutation { createNodes(input: { mapId: "${mapId}", nodes: [${nodes}] }) {
          __typename ... on ValidationError { field reason } } }`)
      ).createNodes;
    expect(await attempt('{ key: "a", question: "A" }, { key: "b", parentKey: "zz", question: "B" }')).toEqual({
      __typename: 'ValidationError',
      field: 'nodes[1].parentKey',
      reason: 'no node of the batch has the key zz',
    });
    expect(await attempt('{ key: "a", question: "A" }, { key: "b", question: "B" }')).toMatchObject({
      field: 'nodes[1].parentId',
      reason: 'the map can have one root',
    });
    expect(
      await attempt(
        '{ key: "r", question: "R" }, { key: "a", parentKey: "b", question: "A" }, { key: "b", parentKey: "a", question: "B" }',
      ),
    ).toMatchObject({ reason: 'the parent keys go round in a circle' });
    expect(await attempt('{ key: "a", question: "A" }, { key: "a", parentKey: "a", question: "B" }')).toMatchObject({
      field: 'nodes[1].key',
    });
    expect(await treeOf(mapId)).toEqual([]);
    const { map } = await gql(`{ map(id: "${mapId}") { ... on Map { lastSeq } } }`);
    expect(map.lastSeq).toBe(1);

    // A batch that passes is one change: one undo takes every node of it back.
    await attempt(
      '{ key: "r", question: "Root" }, { key: "a", parentKey: "r", question: "A" }, { key: "b", parentKey: "a", question: "B" }',
    );
    expect(shape(await treeOf(mapId))).toEqual([['Root', [['A', ['B']]]]]);
    const { undoLastChange } = await gql(`mutation { undoLastChange(mapId: "${mapId}") { __typename } }`);
    expect(undoLastChange.__typename).toBe('CompensationResult');
    expect(await treeOf(mapId)).toEqual([]);
  });

  it('should give back exactly what a JSON export holds when it is imported and exported again', async () => {
    const imported = await importFile('JSON', fixture('full-map.json'));
    expect(imported).toMatchObject({ __typename: 'Map', title: 'Open a café', language: 'en' });
    const first = await exportFile(imported.id, 'JSON');
    expect(first).toMatchObject({ fileName: 'Open-a-café.json', mimeType: 'application/json' });
    const again = await importFile('JSON', first.content);
    const second = await exportFile(again.id, 'JSON');
    expect(withoutIds(second.content)).toEqual(withoutIds(first.content));
    // What the fixture holds came in: the export equals the fixture but for its ids (and a running node, now ready).
    const original = JSON.parse(fixture('full-map.json'));
    original.tree[0].children[1].status = 'READY';
    expect(withoutIds(first.content)).toEqual(withoutIds(JSON.stringify(original)));
    const markdown = await exportFile(again.id, 'MARKDOWN');
    expect(markdown.content).toContain('Where should it be?');
    const opml = await exportFile(again.id, 'OPML');
    expect(opml.content).toContain('<outline text="Should I open a café?"');
  });

  it('should show an import to a live feed as one batch: MapCreated, then the nodes, one change', async () => {
    const subscriber = openSubscriber('graphql-ws', server.endpoint, server.alice.token);
    subscribers.push(subscriber);
    const feed = subscriber.subscribe({
      query: print(VIEWER_EVENTS_FEED),
      variables: { types: ['MapCreated', 'NodeCreated'] },
    });
    await expect.poll(() => server.app.bus.feedListenerCount(server.alice.id)).toBe(1);
    const map = await importFile('OPML', fixture('xmind.opml'));
    const events = (await feed.waitFor(6)).map((result) => (result.viewerEvents as { event: FeedEvent }).event);
    expect(events.map((e) => [e.__typename, e.mapId, e.seq])).toEqual([
      ['MapCreated', map.id, 1],
      ...[2, 3, 4, 5, 6].map((seq) => ['NodeCreated', map.id, seq]),
    ]);
    const { mapHistory } = await gql(`{ mapHistory(mapId: "${map.id}") { ... on MapHistory { changes { seq } } } }`);
    expect(mapHistory.changes).toEqual([{ seq: 1 }]);
  });

  it('should read the outlines of XMind, MindNode, Logseq, Workflowy, OmniOutliner and Markdown as trees', async () => {
    const trees: Record<string, unknown> = {};
    for (const [format, name] of [
      ['OPML', 'mindnode.opml'],
      ['OPML', 'logseq.opml'],
      ['OPML', 'workflowy.opml'],
      ['OPML', 'omnioutliner.opml'],
      ['MARKDOWN', 'headings.md'],
      ['MARKDOWN', 'list.md'],
    ] as const) {
      const map = await importFile(format, fixture(name));
      expect(map.__typename).toBe('Map');
      trees[name] = { title: map.title, language: map.language, tree: shape(await treeOf(map.id)) };
    }
    expect(trees['mindnode.opml']).toEqual({
      title: '要不要换工作',
      language: 'zh',
      tree: [['要不要换工作', ['薪资', ['成长', ['技术栈']]]]],
    });
    // Several top items hang under one root named after the map.
    expect(trees['logseq.opml']).toMatchObject({
      title: 'Garden plan',
      tree: [['Garden plan', [expect.anything(), 'Watering schedule']]],
    });
    expect(trees['workflowy.opml']).toMatchObject({ tree: [['Launch the newsletter', expect.any(Array)]] });
    expect(trees['omnioutliner.opml']).toMatchObject({ title: 'Thesis outline' });
    expect(trees['headings.md']).toMatchObject({ title: 'Reduce churn', tree: [['Reduce churn', expect.any(Array)]] });
    expect(trees['list.md']).toMatchObject({ tree: [['Plan a trip to Kyoto', expect.any(Array)]] });
  });

  it('should refuse a bad file with a typed error naming where, and create nothing', async () => {
    const before = await mapCount();
    const doc = JSON.parse(fixture('full-map.json'));
    // n2 depends on n3 already: n3 depending on n2 closes a cycle.
    const cyclic = structuredClone(doc);
    cyclic.tree[0].children[1].dependsOn = ['n2'];
    const refusals = [
      await importFile('JSON', '{\n  "format": "thinkingmap",\n  "version": 2,\n}'),
      await importFile('JSON', JSON.stringify({ ...doc, version: 7 })),
      await importFile('JSON', JSON.stringify({ ...doc, format: 'mindmap' })),
      await importFile('JSON', JSON.stringify(cyclic)),
      await importFile('JSON', JSON.stringify({ ...doc, tree: [{ ...doc.tree[0], question: 'x'.repeat(1001) }] })),
      await importFile('OPML', '<opml version="2.0">\n<body>\n<outline text="a">\n</body></opml>'),
      await importFile('OPML', '<opml><body><outline text="a"><outline _note="no text"/></outline></body></opml>'),
      await importFile('MARKDOWN', 'Only a paragraph, no outline.'),
      await importFile('MARKDOWN', `# Root\n${'- item\n'.repeat(2_000)}`),
    ];
    expect(refusals.map(({ __typename, format, where, reason }) => ({ __typename, format, where, reason }))).toEqual([
      {
        __typename: 'ImportError',
        format: 'JSON',
        where: 'line 4, column 1',
        reason: expect.stringContaining('not valid JSON'),
      },
      { __typename: 'ImportError', format: 'JSON', where: 'version', reason: 'must be one of 1, 2' },
      { __typename: 'ImportError', format: 'JSON', where: 'format', reason: 'must be "thinkingmap"' },
      {
        __typename: 'ImportError',
        format: 'JSON',
        where: 'tree[0].children[1].dependsOn[0]',
        reason: expect.stringMatching(/^this dependency closes a cycle: /),
      },
      {
        __typename: 'ImportError',
        format: 'JSON',
        where: 'tree[0].question',
        reason: 'must be at most 1000 characters',
      },
      {
        __typename: 'ImportError',
        format: 'OPML',
        where: expect.stringMatching(/^line \d+, column \d+$/),
        reason: expect.any(String),
      },
      {
        __typename: 'ImportError',
        format: 'OPML',
        where: 'opml/body/outline[1]/outline[1]',
        reason: 'an outline has no text',
      },
      { __typename: 'ImportError', format: 'MARKDOWN', where: 'line 1', reason: expect.stringContaining('no heading') },
      {
        __typename: 'ImportError',
        format: 'MARKDOWN',
        where: 'line 2001',
        reason: 'an import may hold at most 2,000 nodes',
      },
    ]);
    expect(await mapCount()).toBe(before);
  });

  it('should refuse to export another viewer’s map', async () => {
    const mapId = await newMap('Private');
    const { exportMap } = await gql(
      `{ exportMap(mapId: "${mapId}", format: JSON) { __typename } }`,
      undefined,
      server.bob.token,
    );
    expect(exportMap.__typename).toBe('ForbiddenError');
  });
});
