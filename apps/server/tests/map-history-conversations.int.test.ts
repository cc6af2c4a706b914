import type { KnowledgePort } from '@thinkingmap/agent-core';
import {
  ADD_CONTEXT_ITEM,
  CLEAR_CONVERSATION,
  CREATE_NODE,
  DELETE_NODE,
  EVENTS,
  MAP,
  MAP_HISTORY,
  MESSAGE_THREAD,
  NODE,
  NODE_DECISIONS,
  POST_MESSAGE,
  PROCESS_NODE,
  RESTORE_MAP,
  REVIEW_DECOMPOSITION,
  RUNS,
  UNDO_LAST_CHANGE,
  UPDATE_NODE,
} from '@thinkingmap/client';
import { logicProviders } from '@thinkingmap/db/testing';
import type { Client } from '@urql/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MapEvent } from '../src/commands/map-event.ts';
import { waitForQuestion, waitForRun } from './helpers/agent-driver.ts';
import { manualMapWithRoot } from './helpers/map-builder.ts';
import { DECOMPOSE_IN_TWO_STAGES } from './helpers/scripted-answers.ts';
import { startScriptedModel } from './helpers/scripted-model-server.ts';
import { attempt, call, startTestServer, type TestServer } from './helpers/test-server.ts';

const providers = logicProviders;

const PASSAGE = 'Shops near the station rent for 80 per square metre.';

/** A knowledge port whose every search finds one passage, with its source. */
const rentKnowledge: KnowledgePort = {
  name: 'wiki',
  async search() {
    return [{ title: 'Rents', content: PASSAGE, score: 0.9, sources: [{ title: 'rent.md:3', uri: 'file://rent.md' }] }];
  },
};

/** What a node's panel shows of what was said and gathered on it. */
async function contentOf(client: Client, nodeId: string) {
  const node = await call(client, NODE, { id: nodeId });
  return { conversations: node.conversations, contextItems: node.contextItems };
}

describe.each(providers)('what a deletion keeps, through undo and restore on %s', (provider) => {
  let server: TestServer;
  let client: Client;
  let model: Awaited<ReturnType<typeof startScriptedModel>>;

  beforeAll(async () => {
    model = await startScriptedModel(DECOMPOSE_IN_TWO_STAGES);
    server = await startTestServer(provider, { model: model.model, knowledge: rentKnowledge });
    client = server.connect(server.alice.token).client;
  });
  afterAll(async () => {
    await server?.close();
    await model?.server.close();
  });

  /**
   * A root with a child that the person and the agents talked about: the person's messages and context items
   * on it, a decomposition run's retrieved passage (with its source) and proposal in its decompose tab, the
   * person's reply to the passage, and on the sub-question the run created a conversation the person cleared.
   */
  async function talkedAboutSubtree(question: string) {
    const { mapId, rootId } = await manualMapWithRoot(client, question);
    const child = await call(client, CREATE_NODE, { input: { mapId, parentId: rootId, question: 'Where to rent?' } });
    await call(client, POST_MESSAGE, {
      input: { nodeId: child.id, conversation: 'CONCLUDE', content: 'Near the station, I think.' },
    });
    await call(client, ADD_CONTEXT_ITEM, { nodeId: child.id, title: 'Budget', content: 'At most 2000 a month.' });
    await call(client, ADD_CONTEXT_ITEM, { nodeId: child.id, content: 'No basement shops.' });
    const run = await call(client, PROCESS_NODE, { nodeId: child.id });
    const review = await waitForQuestion(client, mapId, { kind: 'review-decomposition', nodeId: child.id });
    await call(client, REVIEW_DECOMPOSITION, { input: { requestId: review.requestId, accept: true } });
    await waitForRun(client, mapId, run.id, ['COMPLETED']);

    const said = await contentOf(client, child.id);
    const decomposeTab = said.conversations.find((c) => c.kind === 'DECOMPOSE')!;
    const passage = decomposeTab.messages.find((m) => m.kind === 'RAG')!;
    const reply = await call(client, POST_MESSAGE, {
      input: { nodeId: child.id, conversation: 'DECOMPOSE', content: 'Is that with charges?', parentId: passage.id },
    });
    const [sub] = (await call(client, NODE, { id: child.id })).children;
    await call(client, POST_MESSAGE, { input: { nodeId: sub!.id, conversation: 'CONCLUDE', content: 'First try.' } });
    const cleared = await call(client, POST_MESSAGE, {
      input: { nodeId: sub!.id, conversation: 'CONCLUDE', content: 'Second try.' },
    });
    await call(client, CLEAR_CONVERSATION, { nodeId: sub!.id, conversation: 'CONCLUDE' });
    await call(client, POST_MESSAGE, { input: { nodeId: sub!.id, conversation: 'CONCLUDE', content: 'Afresh.' } });
    await call(client, ADD_CONTEXT_ITEM, { nodeId: sub!.id, content: 'Ask the landlord.' });
    return { mapId, rootId, childId: child.id, subId: sub!.id, replyId: reply.id, clearedId: cleared.id };
  }

  /**
   * Everything said on the child and its sub-question, the two threads walked back through the API, what the
   * child's run decided about it (intent, strategy, sub-questions, the person's approval) and the runs on it.
   */
  async function everythingSaid(made: Awaited<ReturnType<typeof talkedAboutSubtree>>) {
    const thread = async (messageId: string) =>
      (await call(client, MESSAGE_THREAD, { messageId })).messages.map((m) => [m.role, m.content]);
    const decided = await call(client, NODE_DECISIONS, { id: made.childId });
    const runs = await call(client, RUNS, { mapId: made.mapId });
    return {
      child: await contentOf(client, made.childId),
      sub: await contentOf(client, made.subId),
      reply: await thread(made.replyId),
      cleared: await thread(made.clearedId),
      decisions: decided.__typename === 'Node' ? decided.decisions : decided,
      runs: runs.__typename === 'QueryRunsSuccess' ? runs.data.filter((r) => r.nodeId === made.childId) : runs,
    };
  }

  it("should bring back a deleted node's conversations, threads and context items when the deletion is undone", async () => {
    const made = await talkedAboutSubtree('Open a café?');
    const before = await everythingSaid(made);
    // Who said what: the person, the run's proposal, and the passage it retrieved, with its source.
    const messages = before.child.conversations.flatMap((c) => c.messages);
    expect(messages.map((m) => [m.role, m.kind])).toEqual(
      expect.arrayContaining([
        ['USER', 'TEXT'],
        ['ASSISTANT', 'TEXT'],
        ['SYSTEM', 'RAG'],
      ]),
    );
    expect(messages.find((m) => m.kind === 'RAG')).toMatchObject({
      content: expect.stringContaining(PASSAGE),
      metadata: expect.objectContaining({ sources: [{ title: 'rent.md:3', uri: 'file://rent.md' }] }),
    });
    expect(before.child.contextItems.map((i) => i.title)).toEqual(['Budget', '']);
    expect(before.reply.at(-1)).toEqual(['USER', 'Is that with charges?']);
    expect(before.reply.at(-2)).toEqual(['SYSTEM', expect.stringContaining(PASSAGE)]);
    expect(before.cleared).toEqual([
      ['USER', 'First try.'],
      ['USER', 'Second try.'],
    ]);
    expect(before.sub.conversations.find((c) => c.kind === 'CONCLUDE')?.messages.map((m) => m.content)).toEqual([
      'Afresh.',
    ]);
    expect(Array.isArray(before.decisions) && before.decisions.map((d) => d.kind)).toEqual(
      expect.arrayContaining(['INTENT', 'STRATEGY', 'SUB_QUESTIONS']),
    );
    expect(Array.isArray(before.runs) && before.runs.map((r) => r.status)).toEqual(['COMPLETED']);

    const published: MapEvent[] = [];
    const stop = server.app.bus.listen(made.mapId, (event) => published.push(event));
    try {
      await call(client, DELETE_NODE, { id: made.childId });
    } finally {
      stop();
    }
    expect(await attempt(client, NODE, { id: made.childId })).toMatchObject({ __typename: 'NotFoundError' });
    expect(await attempt(client, MESSAGE_THREAD, { messageId: made.replyId })).toMatchObject({
      __typename: 'NotFoundError',
    });
    // What was removed is kept in the log, not sent to listeners.
    const deleted = published.find((e) => e.type === 'NodeDeleted')!;
    expect(Object.keys(deleted.payload).sort()).toEqual(['dependencyIds', 'nodeIds']);
    const row = await server.db.read.event.findFirstOrThrow({ where: { mapId: made.mapId, seq: deleted.seq } });
    expect((row.payload as { archive: unknown[] }).archive).toHaveLength(3);
    const page = await call(client, EVENTS, { mapId: made.mapId, after: deleted.seq - 1, first: 1 });
    expect(JSON.stringify(page.events)).not.toContain(PASSAGE);
    // The history names what the deletion changed, not what was said.
    const { changes } = await call(client, MAP_HISTORY, { mapId: made.mapId, first: 1 });
    expect(changes[0]!.entries.filter((e) => e.action === 'DELETED').map((e) => e.id)).toEqual(
      expect.arrayContaining([made.childId, made.subId]),
    );
    expect(JSON.stringify(changes)).not.toContain(PASSAGE);

    await call(client, UNDO_LAST_CHANGE, { mapId: made.mapId });
    expect(await everythingSaid(made)).toEqual(before);
    const map = await call(client, MAP, { id: made.mapId });
    expect(map.nodes).toHaveLength(4);
  });

  it('should bring them back when the map is restored to a sequence number before a subtree was deleted', async () => {
    const made = await talkedAboutSubtree('Open a bookshop?');
    const before = await everythingSaid(made);
    const { lastSeq: mark } = await call(client, MAP, { id: made.mapId });
    await call(client, DELETE_NODE, { id: made.childId });
    const root = await call(client, NODE, { id: made.rootId });
    await call(client, UPDATE_NODE, {
      input: { id: made.rootId, expectedVersion: root.version, question: 'Open a bookshop café?' },
    });

    const restored = await call(client, RESTORE_MAP, { mapId: made.mapId, seq: mark });
    expect(restored.__typename === 'CompensationResult' && restored.seq).toBeGreaterThan(mark);
    expect((await call(client, NODE, { id: made.rootId })).question).toBe('Open a bookshop?');
    expect(await everythingSaid(made)).toEqual(before);

    // Deleted and restored again: the second deletion kept what the first restore brought back.
    await call(client, DELETE_NODE, { id: made.childId });
    await call(client, UNDO_LAST_CHANGE, { mapId: made.mapId });
    expect(await everythingSaid(made)).toEqual(before);
  });

  it('should still fold and undo a deletion logged before deletions kept an archive, with empty conversations', async () => {
    const { mapId, rootId } = await manualMapWithRoot(client, 'Open a bakery?');
    const child = await call(client, CREATE_NODE, { input: { mapId, parentId: rootId, question: 'Which oven?' } });
    await call(client, POST_MESSAGE, { input: { nodeId: child.id, conversation: 'DECOMPOSE', content: 'Gas?' } });
    await call(client, ADD_CONTEXT_ITEM, { nodeId: child.id, content: 'Electric is cheaper here.' });
    await call(client, DELETE_NODE, { id: child.id });
    // The row as the first version of NodeDeleted wrote it: no archive.
    const { count } = await server.db.write((tx) =>
      tx.event.updateMany({
        where: { mapId, type: 'NodeDeleted' },
        data: { version: 1, payload: { nodeIds: [child.id], dependencyIds: [] } },
      }),
    );
    expect(count).toBe(1);
    const { changes } = await call(client, MAP_HISTORY, { mapId, first: 1 });
    expect(changes[0]!.entries).toEqual([expect.objectContaining({ id: child.id, action: 'DELETED' })]);

    await call(client, UNDO_LAST_CHANGE, { mapId });
    const back = await call(client, NODE, { id: child.id });
    expect(back.question).toBe('Which oven?');
    expect(back.conversations.map((c) => [c.kind, c.messages])).toEqual(
      expect.arrayContaining([
        ['DECOMPOSE', []],
        ['CONCLUDE', []],
      ]),
    );
    expect(back.conversations).toHaveLength(2);
    expect(back.contextItems).toEqual([]);
  });
});
