import {
  ADD_CONTEXT_ITEM,
  CLEAR_CONVERSATION,
  CREATE_MAP,
  CREATE_NODE,
  DELETE_NODE,
  graphql,
  MAP,
  MAP_HISTORY,
  NODE,
  POST_MESSAGE,
  PROCESS_NODE,
  REDO_LAST_UNDO,
  RESTORE_MAP,
  REVIEW_DECOMPOSITION,
  SET_CONCLUSION,
  UNDO_LAST_CHANGE,
  UNDO_RUN,
  UPDATE_MAP,
  UPDATE_NODE,
} from '@thinkingmap/client';
import { testProviders } from '@thinkingmap/db/testing';
import type { Client } from '@urql/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForQuestion, waitForRun } from './helpers/agent-driver.ts';
import { DECOMPOSE_IN_TWO_STAGES } from './helpers/scripted-answers.ts';
import { startScriptedModel } from './helpers/scripted-model-server.ts';
import { attempt, call, startTestServer, type TestServer } from './helpers/test-server.ts';

// The history is read from the event log: both databases.
const providers = await testProviders();

/** A map with a root, no run started by itself. */
async function mapWithRoot(client: Client, question = 'Open a bakery?') {
  const map = await call(client, CREATE_MAP, { input: { title: question } });
  await call(client, UPDATE_MAP, { input: { id: map.id, autoRun: false } });
  const root = await call(client, CREATE_NODE, { input: { mapId: map.id, question } });
  return { mapId: map.id, rootId: root.id };
}

async function history(client: Client, mapId: string) {
  return call(client, MAP_HISTORY, { mapId });
}

/** Decomposes the root through a run the person approves, and returns the run's id once it completed. */
async function decomposeRoot(client: Client, mapId: string, rootId: string) {
  const run = await call(client, PROCESS_NODE, { nodeId: rootId });
  const question = await waitForQuestion(client, mapId, { kind: 'review-decomposition' });
  await call(client, REVIEW_DECOMPOSITION, { input: { requestId: question.requestId, accept: true } });
  await waitForRun(client, mapId, run.id, ['COMPLETED']);
  return run.id;
}

describe.each(providers)('map history and undo on %s', (provider) => {
  let server: TestServer;
  let client: Client;

  beforeAll(async () => {
    const model = await startScriptedModel(DECOMPOSE_IN_TWO_STAGES);
    server = await startTestServer(provider, { model: model.model });
    client = server.connect(server.alice.token).client;
  });
  afterAll(() => server.close());

  it('should show a node edit with its diff, undo it with new events, and redo the undo', async () => {
    const { mapId, rootId } = await mapWithRoot(client);
    const root = await call(client, NODE, { id: rootId });
    await call(client, UPDATE_NODE, {
      input: { id: rootId, expectedVersion: root.version, question: 'Open two bakeries?' },
    });
    const edited = await history(client, mapId);
    const edit = edited.changes[0]!;
    expect(edit).toMatchObject({ kind: 'EDIT', runId: null, actorId: server.alice.id, revertedBy: null });
    expect(edit.entries).toEqual([
      expect.objectContaining({
        entity: 'NODE',
        id: rootId,
        action: 'UPDATED',
        fields: [{ field: 'question', before: 'Open a bakery?', after: 'Open two bakeries?' }],
      }),
    ]);
    expect(edited.undoSeq).toBe(edit.seq);
    const lastSeqBefore = (await call(client, MAP, { id: mapId })).lastSeq;

    const undone = await call(client, UNDO_LAST_CHANGE, { mapId });
    expect(undone.__typename).toBe('CompensationResult');
    expect((await call(client, NODE, { id: rootId })).question).toBe('Open a bakery?');
    const afterUndo = await history(client, mapId);
    expect(afterUndo.changes[0]).toMatchObject({ kind: 'UNDO', revertsSeq: edit.seq });
    expect(afterUndo.changes.find((c) => c.seq === edit.seq)?.revertedBy).toBe(afterUndo.changes[0]!.seq);
    // The log grew; nothing in it was rewritten.
    expect((await call(client, MAP, { id: mapId })).lastSeq).toBeGreaterThan(lastSeqBefore);
    expect(afterUndo.changes.find((c) => c.seq === edit.seq)?.entries).toEqual(edit.entries);
    expect(afterUndo.redoSeq).toBe(afterUndo.changes[0]!.seq);

    await call(client, REDO_LAST_UNDO, { mapId });
    expect((await call(client, NODE, { id: rootId })).question).toBe('Open two bakeries?');
    const afterRedo = await history(client, mapId);
    expect(afterRedo.changes[0]).toMatchObject({ kind: 'REDO', revertsSeq: afterUndo.changes[0]!.seq });
    // The edit is in effect again: only the undo shows as taken back (by the redo).
    expect(afterRedo.changes.find((c) => c.seq === edit.seq)?.revertedBy).toBeNull();
    expect(afterRedo.changes.find((c) => c.seq === afterUndo.changes[0]!.seq)?.revertedBy).toBe(
      afterRedo.changes[0]!.seq,
    );
    expect(afterRedo.redoSeq).toBeNull();
    const nothing = await attempt(client, REDO_LAST_UNDO, { mapId });
    expect(nothing).toMatchObject({ __typename: 'UndoRefusedError', reason: 'NOTHING_TO_REDO', code: 'CONFLICT' });
  });

  it('should undo a whole decomposition run: the children it created are removed', async () => {
    const { mapId, rootId } = await mapWithRoot(client, 'Start a podcast?');
    const before = await call(client, NODE, { id: rootId });
    const runId = await decomposeRoot(client, mapId, rootId);
    expect((await call(client, NODE, { id: rootId })).children).toHaveLength(2);
    const byRun = (await history(client, mapId)).changes.filter((c) => c.runId === runId);
    expect(byRun.some((c) => c.step === 'createChildren' && c.entries.some((e) => e.action === 'CREATED'))).toBe(true);

    const result = await call(client, UNDO_RUN, { runId });
    expect(result.__typename).toBe('CompensationResult');
    const after = await call(client, NODE, { id: rootId });
    expect(after.children).toEqual([]);
    expect(after.status).toBe(before.status);
    expect((await call(client, MAP, { id: mapId })).nodes.map((n) => n.id)).toEqual([rootId]);

    // The history marks every change of the run undone by that undo, which the person can undo in turn.
    const undone = await history(client, mapId);
    const undo = undone.changes[0]!;
    expect(undo).toMatchObject({ kind: 'UNDO', runId: null, revertsSeq: Math.min(...byRun.map((c) => c.seq)) });
    expect(undone.changes.filter((c) => c.runId === runId).map((c) => c.revertedBy)).toEqual(byRun.map(() => undo.seq));
    expect(undone.undoSeq).toBe(undo.seq);
    expect(undone.redoSeq).toBeNull();

    // A second undo of the run says it was undone already, and changes nothing.
    const again = await attempt(client, UNDO_RUN, { runId });
    expect(again).toMatchObject({ __typename: 'UndoRefusedError', reason: 'ALREADY_UNDONE', code: 'CONFLICT' });
    expect((await call(client, MAP, { id: mapId })).lastSeq).toBe(undone.changes[0]!.lastSeq);
  });

  it("should take back a root's conclusion with the map's completion, and restore status and progress", async () => {
    const { mapId, rootId } = await mapWithRoot(client, 'Adopt a dog?');
    const { lastSeq: open } = await call(client, MAP, { id: mapId });
    await call(client, SET_CONCLUSION, { input: { nodeId: rootId, conclusion: 'Yes, a calm one.' } });
    const completed = await call(client, MAP, { id: mapId });
    expect(completed).toMatchObject({ status: 'COMPLETED', progress: { total: 1, concluded: 1 } });

    await call(client, UNDO_LAST_CHANGE, { mapId });
    const undone = await call(client, MAP, { id: mapId });
    expect(undone).toMatchObject({ status: 'ACTIVE', progress: { total: 1, concluded: 0, open: 1 } });
    expect((await call(client, NODE, { id: rootId })).conclusion).toBeNull();
    await call(client, REDO_LAST_UNDO, { mapId });
    expect(await call(client, MAP, { id: mapId })).toMatchObject({ status: 'COMPLETED', progress: { concluded: 1 } });

    // A map field the person set is a change of theirs too: undone by itself, not an older change instead.
    await call(client, UPDATE_MAP, { input: { id: mapId, autoRun: true } });
    await call(client, UNDO_LAST_CHANGE, { mapId });
    expect(await call(client, MAP, { id: mapId })).toMatchObject({ autoRun: false, status: 'COMPLETED' });

    await call(client, RESTORE_MAP, { mapId, seq: open });
    const restored = await call(client, MAP, { id: mapId });
    expect(restored).toMatchObject({ status: 'ACTIVE', autoRun: false, progress: { concluded: 0, open: 1 } });
    expect((await call(client, NODE, { id: rootId })).status).toBe(undone.nodes[0]!.status);
  });

  it('should undo an added context item, and restore the items a node had at a sequence number', async () => {
    const { mapId, rootId } = await mapWithRoot(client, 'Rent a flat?');
    const root = await call(client, NODE, { id: rootId });
    await call(client, UPDATE_NODE, { input: { id: rootId, expectedVersion: root.version, goal: 'By June' } });
    const { lastSeq: mark } = await call(client, MAP, { id: mapId });
    await call(client, ADD_CONTEXT_ITEM, { nodeId: rootId, title: 'Budget', content: 'At most 900 a month.' });
    const added = (await history(client, mapId)).changes[0]!;
    expect(added.entries).toEqual([
      expect.objectContaining({ entity: 'CONTEXT_ITEM', action: 'CREATED', label: 'Budget' }),
    ]);

    // Undo takes back the item, not the goal edit before it.
    await call(client, UNDO_LAST_CHANGE, { mapId });
    const afterUndo = await call(client, NODE, { id: rootId });
    expect(afterUndo.contextItems).toEqual([]);
    expect(afterUndo.goal).toBe('By June');
    await call(client, REDO_LAST_UNDO, { mapId });
    expect((await call(client, NODE, { id: rootId })).contextItems.map((i) => i.content)).toEqual([
      'At most 900 a month.',
    ]);

    // Restoring to before the item was added leaves the node without it, and the goal edit stands.
    await call(client, ADD_CONTEXT_ITEM, { nodeId: rootId, content: 'Near a park.' });
    await call(client, RESTORE_MAP, { mapId, seq: mark });
    const restored = await call(client, NODE, { id: rootId });
    expect(restored.contextItems).toEqual([]);
    expect(restored.goal).toBe('By June');
  });

  it("should undo the person's approval of sub-questions as their last change, and say precisely when nothing is left", async () => {
    const { mapId, rootId } = await mapWithRoot(client, 'Grow tomatoes?');
    await decomposeRoot(client, mapId, rootId);
    expect((await call(client, NODE, { id: rootId })).children).toHaveLength(2);
    // The run carried out the approval in several commands (each child, then the needs): one step, one change.
    const approval = (await history(client, mapId)).changes.filter((c) => c.step === 'createChildren');
    expect(approval).toHaveLength(1);
    const approved = approval[0]!;
    expect(approved.entries.filter((e) => e.entity === 'NODE' && e.action === 'CREATED')).toHaveLength(2);
    expect(approved.lastSeq).toBeGreaterThan(approved.seq);
    expect((await history(client, mapId)).undoSeq).toBe(approved.seq);

    const undone = await call(client, UNDO_LAST_CHANGE, { mapId });
    expect(undone.__typename).toBe('CompensationResult');
    expect((await call(client, NODE, { id: rootId })).children).toEqual([]);
    const after = await history(client, mapId);
    expect(after.changes[0]).toMatchObject({ kind: 'UNDO', runId: null, revertsSeq: approved.seq });
    expect(after.redoSeq).toBe(after.changes[0]!.seq);
    expect(after.changes.filter((c) => c.step === 'createChildren').map((c) => c.revertedBy)).toEqual(
      approval.map(() => after.changes[0]!.seq),
    );
    await call(client, REDO_LAST_UNDO, { mapId });
    expect((await call(client, NODE, { id: rootId })).children).toHaveLength(2);

    // Only the map's creation is left once every change of the person's is undone: a typed, precise refusal.
    const fresh = await call(client, CREATE_MAP, { input: { title: 'Nothing yet' } });
    const nothing = await attempt(client, UNDO_LAST_CHANGE, { mapId: fresh.id });
    expect(nothing).toMatchObject({ __typename: 'UndoRefusedError', reason: 'NOTHING_TO_UNDO', code: 'CONFLICT' });
    expect(nothing).toHaveProperty('message', expect.stringContaining('since the map was created'));
  });

  it('should refuse to undo a run when a later change depends on it, naming that change, and change nothing', async () => {
    const { mapId, rootId } = await mapWithRoot(client, 'Learn the cello?');
    const runId = await decomposeRoot(client, mapId, rootId);
    const child = (await call(client, NODE, { id: rootId })).children[0]!;
    const childNode = await call(client, NODE, { id: child.id });
    await call(client, UPDATE_NODE, {
      input: { id: child.id, expectedVersion: childNode.version, question: 'Which teacher?' },
    });
    const edit = (await history(client, mapId)).changes[0]!;
    const lastSeq = (await call(client, MAP, { id: mapId })).lastSeq;

    const refused = await attempt(client, UNDO_RUN, { runId });
    expect(refused).toMatchObject({ __typename: 'UndoRefusedError', reason: 'LATER_CHANGE', laterSeq: edit.seq });
    expect((await call(client, MAP, { id: mapId })).lastSeq).toBe(lastSeq);
    expect((await call(client, NODE, { id: rootId })).children).toHaveLength(2);
  });

  it('should restore the map as it was at a sequence number, as a new version', async () => {
    const { mapId, rootId } = await mapWithRoot(client, 'Move abroad?');
    const a = await call(client, CREATE_NODE, { input: { mapId, parentId: rootId, question: 'Which country?' } });
    const b = await call(client, CREATE_NODE, { input: { mapId, parentId: rootId, question: 'Which job?' } });
    const { lastSeq: mark } = await call(client, MAP, { id: mapId });
    await call(client, UPDATE_NODE, { input: { id: a.id, expectedVersion: a.version, question: 'Which city?' } });
    await call(client, DELETE_NODE, { id: b.id });
    await call(client, CREATE_NODE, { input: { mapId, parentId: rootId, question: 'Which school?' } });

    const RESTORE_BY_HAND = graphql(`
      mutation Back($map: ID!, $at: Int!) {
        restored: restoreMap(mapId: $map, seq: $at) {
          __typename
          ... on CompensationResult {
            written: seq
          }
          ... on Error {
            code
          }
        }
      }
    `);
    const restored = await call(client, RESTORE_BY_HAND, { map: mapId, at: mark });
    expect(restored.__typename === 'CompensationResult' && restored.written).toBeGreaterThan(mark);
    const map = await call(client, MAP, { id: mapId });
    expect(Object.fromEntries(map.nodes.map((n) => [n.id, n.question]))).toEqual({
      [rootId]: 'Move abroad?',
      [a.id]: 'Which country?',
      [b.id]: 'Which job?',
    });
    expect((await history(client, mapId)).changes[0]).toMatchObject({ kind: 'RESTORE' });

    const beyond = await attempt(client, RESTORE_MAP, { mapId, seq: map.lastSeq + 100 });
    expect(beyond).toMatchObject({ __typename: 'ValidationError', field: 'seq' });
  });

  it("should take back the person's message and their clearing of a conversation, and restore what was shown", async () => {
    const { mapId, rootId } = await mapWithRoot(client, 'Learn to sail?');
    const shown = async () =>
      (await call(client, NODE, { id: rootId })).conversations
        .find((c) => c.kind === 'CONCLUDE')!
        .messages.map((m) => m.content);
    const post = (content: string) =>
      call(client, POST_MESSAGE, { input: { nodeId: rootId, conversation: 'CONCLUDE', content } });
    await post('Where is the nearest club?');
    const { lastSeq: mark } = await call(client, MAP, { id: mapId });
    await post('I get seasick.');
    expect((await history(client, mapId)).changes[0]!.entries).toEqual([
      expect.objectContaining({ entity: 'MESSAGE', action: 'CREATED', label: 'I get seasick.' }),
    ]);

    // Undo hides the message (kept, as a cleared one is); redo shows it again.
    await call(client, UNDO_LAST_CHANGE, { mapId });
    expect(await shown()).toEqual(['Where is the nearest club?']);
    await call(client, REDO_LAST_UNDO, { mapId });
    expect(await shown()).toEqual(['Where is the nearest club?', 'I get seasick.']);

    // Clearing the conversation is a change of the person's too: undo shows every message again.
    await call(client, CLEAR_CONVERSATION, { nodeId: rootId, conversation: 'CONCLUDE' });
    expect(await shown()).toEqual([]);
    await call(client, UNDO_LAST_CHANGE, { mapId });
    expect(await shown()).toEqual(['Where is the nearest club?', 'I get seasick.']);

    await call(client, RESTORE_MAP, { mapId, seq: mark });
    expect(await shown()).toEqual(['Where is the nearest club?']);
  });

  it("should refuse another person's map and answer literal arguments", async () => {
    const { mapId } = await mapWithRoot(client, 'Buy a boat?');
    const bob = server.connect(server.bob.token).client;
    expect(await attempt(bob, UNDO_LAST_CHANGE, { mapId })).toMatchObject({ __typename: 'ForbiddenError' });
    // A document written by hand, with a literal id and aliases.
    const literal = await client
      .query(
        `query { h: mapHistory(mapId: "${mapId}", first: 1) { ... on MapHistory { undo: undoSeq changes { seq kind } } } }`,
        {},
      )
      .toPromise();
    expect(literal.data?.h.changes).toEqual([{ seq: literal.data?.h.undo, kind: 'EDIT' }]);
  });
});
