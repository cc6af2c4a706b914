import { driveRun, OfflineModel, resumeWith } from '@thinkingmap/agent-core';
import { InMemoryCheckpointStore, InMemoryStore, RecordingEvents } from '@thinkingmap/agent-core/testing';
import { describe, expect, it } from 'vitest';
import { type DriveParts, ReusableGraphs } from './reusable-graphs.ts';

/** A store with a map and one leaf under its root, and the parts of a drive on it. */
async function driveOnNewLeaf(question: string) {
  const store = new InMemoryStore();
  const map = store.addMap({ problem: 'How do we grow?' });
  const root = await store.createNode({ mapId: map.id, parentId: null, question: 'How do we grow?', goal: '' });
  const leaf = await store.createNode({ mapId: map.id, parentId: root.id, question, goal: '' });
  const events = new RecordingEvents();
  const parts: DriveParts = { model: new OfflineModel(), store, events, checkpoints: new InMemoryCheckpointStore() };
  const options = {
    run: { runId: `run-${leaf.id}`, graph: 'process-node', nodeId: leaf.id },
    threadId: `run-${leaf.id}`,
    events,
    usage: () => ({ promptTokens: 0, completionTokens: 0 }),
    store,
  };
  return { store, leaf, events, parts, options };
}

describe('reusable process-node graphs', () => {
  it('should run each drive on its own ports, also two at once and one after the other on the same graph', async () => {
    const graphs = new ReusableGraphs({});
    const [a, b] = await Promise.all([driveOnNewLeaf('Channel A?'), driveOnNewLeaf('Channel B?')]);
    // Two drives at once borrow two graphs.
    const [lentA, lentB] = [graphs.lend(a.parts), graphs.lend(b.parts)];
    expect(lentA).not.toBe(lentB);
    const [waitingA, waitingB] = await Promise.all([
      driveRun(lentA.graph, { nodeId: a.leaf.id, intentOverride: 'CONCLUDE' }, a.options),
      driveRun(lentB.graph, { nodeId: b.leaf.id, intentOverride: 'CONCLUDE' }, b.options),
    ]);
    graphs.giveBack(lentA, true);
    graphs.giveBack(lentB, true);
    expect([waitingA.status, waitingB.status]).toEqual(['WAITING', 'WAITING']);
    // Each resume borrows a graph the other drive compiled or used: it still reads and writes its own store.
    for (const [drive, waiting] of [
      [b, waitingB],
      [a, waitingA],
    ] as const) {
      const lent = graphs.lend(drive.parts);
      const done = await driveRun(
        lent.graph,
        resumeWith(waiting.status === 'WAITING' ? waiting.questions[0]!.requestId : '', { action: 'accept' }),
        drive.options,
      );
      graphs.giveBack(lent, true);
      expect(done.status).toBe('COMPLETED');
    }
    for (const drive of [a, b]) {
      expect(drive.store.nodes.get(drive.leaf.id)?.status).toBe('COMPLETED');
      // Each drive's steps were told to its own events only: one question, one conclusion saved.
      expect(drive.events.questions).toHaveLength(1);
      expect(drive.events.lines.filter((line) => line === 'left saveConclusion done')).toHaveLength(1);
    }
  });

  it('should lend a graph again only after a drive that ended by itself, and refuse what a graph asks once given back', async () => {
    const graphs = new ReusableGraphs({});
    const { parts } = await driveOnNewLeaf('Channel C?');
    const kept = graphs.lend(parts);
    graphs.giveBack(kept, true);
    const again = graphs.lend(parts);
    expect(again).toBe(kept);
    graphs.giveBack(again, false);
    const fresh = graphs.lend(parts);
    expect(fresh).not.toBe(kept);
    graphs.giveBack(fresh, true);
    // A late call of the aborted drive's graph reaches no drive's ports.
    await expect(kept.graph.getState({ configurable: { thread_id: 'late' } })).rejects.toThrow(
      'a reusable graph ran outside the drive it was lent to',
    );
  });
});
