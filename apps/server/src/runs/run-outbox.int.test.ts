import { AgentError } from '@thinkingmap/agent-core';
import type { Database, User } from '@thinkingmap/db';
import { createTestDatabase, type TestDatabase, testProviders } from '@thinkingmap/db/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CommandContext } from '../commands/context.ts';
import { VersionConflictError } from '../commands/domain-errors.ts';
import { readEvents } from '../commands/event-log.ts';
import type { PendingEvent } from '../commands/map-event.ts';
import { createEventBus, type EventBus } from '../events/event-bus.ts';
import { addDependency } from '../maps/dependency-commands.ts';
import { createMap } from '../maps/map-commands.ts';
import { createNode, updateNode } from '../maps/node-commands.ts';
import { recordNodeState } from '../maps/node-state-commands.ts';
import { deleteNode } from '../maps/tree-commands.ts';
import { CommandStore } from './command-store.ts';
import { RunOutbox } from './run-outbox.ts';

const providers = await testProviders();
const logError = (error: unknown) => {
  throw error;
};

const step = (name: string): PendingEvent => ({
  type: 'AgentStep',
  payload: {
    runId: 'r1',
    graph: 'process-node',
    nodeId: null,
    step: name,
    branch: null,
    phase: 'ENTERED',
    outcome: null,
    durationMs: null,
  },
});

describe.each(providers)('a run outbox on %s', (provider) => {
  let testDb: TestDatabase;
  let db: Database;
  let bus: EventBus;
  let owner: User;
  let ctx: CommandContext;
  beforeAll(async () => {
    testDb = await createTestDatabase(provider);
    db = await testDb.open();
    bus = createEventBus({ logError });
    owner = await db.write((tx) => tx.user.create({ data: { name: 'Owner' } }));
    ctx = { db, bus, viewer: owner };
  });
  afterAll(async () => {
    await bus?.close();
    await db?.close();
    await testDb?.drop();
  });

  const logOf = async (mapId: string) =>
    (await readEvents(db.read, mapId, 0, 1000)).map((e) => ({
      seq: e.seq,
      at: e.createdAt,
      what: e.type === 'AgentStep' ? `step ${e.payload.step}` : e.type,
    }));

  /** A map with a root node, and a run's outbox and store on it; the outbox writes only when flushed or carried. */
  async function rootWithRun(title: string) {
    const map = await createMap(ctx, { title });
    const root = await createNode(ctx, { mapId: map.id, question: 'root' });
    const outbox = new RunOutbox(ctx, map.id, logError, 60_000);
    const store = new CommandStore({ db, bus, owner, mapId: map.id, outbox });
    return { map, root, outbox, store };
  }

  it('should write queued progress in a transaction of its own before the run’s next command, in order', async () => {
    const { map, root, outbox, store } = await rootWithRun('Progress first');
    outbox.push([step('collectContext')]);
    outbox.defer((tx, emit, map) =>
      recordNodeState(db.runLog, tx, emit, map.id, { nodeId: root.id, status: 'RUNNING' }),
    );
    outbox.push([step('checkDependencies')]);
    await store.createNode({ mapId: map.id, question: 'child', parentId: root.id, goal: '' });
    const log = await logOf(map.id);
    expect(log.map((e) => e.what)).toEqual([
      'MapCreated',
      'NodeCreated',
      'step collectContext',
      'NodeUpdated',
      'step checkDependencies',
      'NodeCreated',
    ]);
    expect(log.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    // One transaction for the progress, written where it happened: not inside the command that followed it.
    expect(new Set(log.slice(2, 5).map((e) => e.at)).size).toBe(1);
    expect((await db.read.node.findUniqueOrThrow({ where: { id: root.id } })).status).toBe('RUNNING');
  });

  it('should keep the progress written when the run’s next command is refused', async () => {
    const { map, root: node, outbox, store } = await rootWithRun('Refused');
    outbox.push([step('recognizeIntent')]);
    await expect(store.addDependency(node.id, node.id)).rejects.toBeInstanceOf(AgentError);
    expect((await logOf(map.id)).map((e) => e.what)).toEqual(['MapCreated', 'NodeCreated', 'step recognizeIntent']);
  });

  it('should hand what is left to the write that carries it (a settle), in its transaction and before its events', async () => {
    const { map, root, outbox } = await rootWithRun('Carried');
    outbox.push([step('draftConclusion')]);
    await createNode({ ...ctx, carry: outbox }, { mapId: map.id, question: 'child', parentId: root.id });
    const log = (await logOf(map.id)).slice(-2);
    expect(log.map((e) => e.what)).toEqual(['step draftConclusion', 'NodeCreated']);
    expect(log[0]!.at).toEqual(log[1]!.at);
  });

  it('should put progress back when the write carrying it fails, and record it on its own later', async () => {
    const { map, root: node, outbox } = await rootWithRun('Put back');
    outbox.push([step('recognizeIntent')]);
    await expect(
      updateNode({ ...ctx, carry: outbox }, { id: node.id, expectedVersion: node.version + 5, goal: 'stale' }),
    ).rejects.toBeInstanceOf(VersionConflictError);
    expect((await logOf(map.id)).map((e) => e.what)).toEqual(['MapCreated', 'NodeCreated']);
    await outbox.flush();
    expect((await logOf(map.id)).map((e) => e.what)).toEqual(['MapCreated', 'NodeCreated', 'step recognizeIntent']);
  });

  it('should record progress on its own when no command follows within its delay', async () => {
    const map = await createMap(ctx, { title: 'Alone' });
    const outbox = new RunOutbox(ctx, map.id, logError, 10);
    outbox.push([step('draftConclusion')]);
    await vi.waitFor(async () =>
      expect((await logOf(map.id)).map((e) => e.what)).toEqual(['MapCreated', 'step draftConclusion']),
    );
  });

  it('should skip the state of a node deleted meanwhile without failing the progress or the command after it', async () => {
    const { map, root, outbox, store } = await rootWithRun('Deleted node');
    const gone = await createNode(ctx, { mapId: map.id, question: 'gone', parentId: root.id });
    outbox.defer((tx, emit, map) =>
      recordNodeState(db.runLog, tx, emit, map.id, { nodeId: gone.id, status: 'RUNNING' }),
    );
    await deleteNode(ctx, { id: gone.id });
    await store.createNode({ mapId: map.id, question: 'still works', parentId: root.id, goal: '' });
    expect((await logOf(map.id)).map((e) => e.what)).toEqual([
      'MapCreated',
      'NodeCreated',
      'NodeCreated',
      'NodeDeleted',
      'NodeCreated',
    ]);
  });

  /** A map with a root and a child, and a run's store on it whose outbox writes only before the run's commands. */
  async function runOnNewMap(title: string) {
    const { map, root, outbox, store } = await rootWithRun(title);
    const child = await createNode(ctx, { mapId: map.id, question: 'child', parentId: root.id });
    /** The run's next command: a new node under `parentId`. */
    const next = (parentId: string, question = 'next command') =>
      store.createNode({ mapId: map.id, question, parentId, goal: '' });
    return { map, root, child, outbox, store, next };
  }

  it('should post a queued message with the run’s progress before its next command, once per key', async () => {
    const { map, child, store, next } = await runOnNewMap('Queued draft');
    const draft = {
      nodeId: child.id,
      conversation: 'CONCLUDE' as const,
      role: 'ASSISTANT' as const,
      kind: 'TEXT' as const,
      content: 'A draft conclusion',
      idempotencyKey: 'run-1:draftConclusion:1',
    };
    await store.queueMessage(draft);
    // The same step re-run (a resume after a restart) queues it again under the same key.
    await store.queueMessage(draft);
    expect(await db.read.message.count({ where: { mapId: map.id } })).toBe(0);
    await next(child.id);
    const messages = await db.read.message.findMany({ where: { mapId: map.id } });
    expect(messages.map((m) => m.content)).toEqual(['A draft conclusion']);
    expect((await logOf(map.id)).slice(-2).map((e) => e.what)).toEqual(['MessagePosted', 'NodeCreated']);
  });

  it('should conclude a queued node before the next command, releasing what waited for it as a conclusion does', async () => {
    const { map, root, child, store, next } = await runOnNewMap('Queued conclusion');
    const waiting = await createNode(ctx, { mapId: map.id, question: 'waits for child', parentId: root.id });
    await addDependency(ctx, { nodeId: waiting.id, dependsOnId: child.id });
    expect((await db.read.node.findUniqueOrThrow({ where: { id: waiting.id } })).status).toBe('BLOCKED');
    await store.queueConclusion(child.id, { text: 'Conclusion', kind: 'ANALYTICAL', idempotencyKey: 'run-2:save' });
    expect((await db.read.node.findUniqueOrThrow({ where: { id: child.id } })).status).not.toBe('COMPLETED');
    await next(root.id);
    const concluded = await db.read.node.findUniqueOrThrow({ where: { id: child.id } });
    expect(concluded).toMatchObject({ conclusion: 'Conclusion', conclusionKind: 'ANALYTICAL', status: 'COMPLETED' });
    expect((await db.read.node.findUniqueOrThrow({ where: { id: waiting.id } })).status).toBe('READY');
    expect((await logOf(map.id)).map((e) => e.what).slice(-3)).toEqual(['NodeConcluded', 'NodeUpdated', 'NodeCreated']);
  });

  it('should skip a queued write whose node was deleted meanwhile, without failing the command after it', async () => {
    const { map, root, child, store, next } = await runOnNewMap('Deleted meanwhile');
    await store.queueConclusion(child.id, { text: 'Too late', kind: 'ANALYTICAL' });
    await deleteNode(ctx, { id: child.id });
    const created = await next(root.id, 'still written');
    expect(created.question).toBe('still written');
    expect((await logOf(map.id)).map((e) => e.what).slice(-2)).toEqual(['NodeDeleted', 'NodeCreated']);
  });

  it('should refuse a queued write with bad input at once, queueing nothing', async () => {
    const { map, child, store, next } = await runOnNewMap('Bad input');
    const refused = store.queueMessage({
      nodeId: child.id,
      conversation: 'CONCLUDE',
      role: 'ASSISTANT',
      kind: 'TEXT',
      content: '',
    });
    await expect(refused).rejects.toBeInstanceOf(AgentError);
    await expect(refused).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    await next(child.id);
    expect(await db.read.message.count({ where: { mapId: map.id } })).toBe(0);
  });
});
