import { describe, expect, it } from 'vitest';
import { PortCheckpointSaver } from '../checkpoint/port-checkpoint-saver.ts';
import { nextBottomUpNode } from '../dependencies/next-bottom-up-node.ts';
import { createProcessNodeGraph } from '../graphs/process-node/graph.ts';
import { createUnderstandProblemGraph } from '../graphs/understand-problem/graph.ts';
import { OfflineModel } from '../model/offline-model.ts';
import { driveRun, type RunOutcome, resumeWith } from '../runs/drive-run.ts';
import { InMemoryCheckpointStore } from '../testing/in-memory-checkpoint-store.ts';
import { InMemoryStore } from '../testing/in-memory-store.ts';
import { RecordingEvents } from '../testing/recording-events.ts';

const ZERO = () => ({ promptTokens: 0, completionTokens: 0 });

function requestOf(outcome: RunOutcome): string {
  if (outcome.status !== 'WAITING') throw new Error(`expected the run to wait, got ${outcome.status}`);
  return outcome.questions[0]!.requestId;
}

describe('the whole journey offline', () => {
  it('should go from a problem to a concluded map, blocked siblings waiting and the root concluding bottom-up', async () => {
    const store = new InMemoryStore();
    const rows = new InMemoryCheckpointStore();
    const events = new RecordingEvents();
    const deps = { model: new OfflineModel(), store, events };
    const map = store.addMap({ problem: 'How should I learn Rust this year?' });
    let runs = 0;
    const run = async (
      graph: ReturnType<typeof createProcessNodeGraph> | ReturnType<typeof createUnderstandProblemGraph>,
      input: unknown,
      nodeId?: string,
    ) => {
      const threadId = `run-${++runs}`;
      const options = { run: { runId: threadId, graph: 'g', nodeId }, threadId, events, usage: ZERO, store };
      let outcome = await driveRun(graph, input, options);
      // Each restart gets a new saver over the same rows; the reply accepts whatever is proposed.
      while (outcome.status === 'WAITING') {
        const fresh = nodeId
          ? createProcessNodeGraph(deps, { checkpointer: new PortCheckpointSaver(rows) })
          : createUnderstandProblemGraph(deps, { checkpointer: new PortCheckpointSaver(rows) });
        const kind = outcome.questions[0]!.kind;
        const answer =
          kind === 'confirm-understanding'
            ? { confirm: true }
            : kind === 'review-decomposition'
              ? { action: 'approve' }
              : { action: 'accept' };
        outcome = await driveRun(fresh, resumeWith(requestOf(outcome), answer), options);
      }
      return outcome;
    };

    const understood = await run(createUnderstandProblemGraph(deps, { checkpointer: new PortCheckpointSaver(rows) }), {
      mapId: map.id,
      problem: map.problem,
    });
    if (understood.status !== 'COMPLETED') throw new Error('problem understanding should complete');
    const rootId = understood.output.rootNodeId as string;
    const graph = () => createProcessNodeGraph(deps, { checkpointer: new PortCheckpointSaver(rows) });

    expect((await run(graph(), { nodeId: rootId }, rootId)).status).toBe('COMPLETED');
    const [facts, options, choice] = store.childrenOf(rootId);
    expect(store.childrenOf(rootId)).toHaveLength(3);

    const blocked = await run(graph(), { nodeId: choice!.id }, choice!.id);
    expect(blocked).toMatchObject({ status: 'COMPLETED', output: { outcome: 'BLOCKED' } });

    for (const child of [facts!, options!, choice!]) await run(graph(), { nodeId: child.id }, child.id);
    expect(store.childrenOf(rootId).every((c) => c.status === 'COMPLETED')).toBe(true);

    expect(await nextBottomUpNode(store, choice!.id)).toBe(rootId);
    await run(graph(), { nodeId: rootId, intentOverride: 'CONCLUDE' }, rootId);
    expect(store.nodes.get(rootId)).toMatchObject({
      status: 'COMPLETED',
      conclusion: expect.stringContaining('[Offline draft]'),
    });
    expect(events.lines.filter((l) => l.startsWith('run failed'))).toEqual([]);
  });
});
