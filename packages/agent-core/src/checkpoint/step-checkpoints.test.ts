import { Annotation, Command, END, interrupt, START, StateGraph } from '@langchain/langgraph';
import { describe, expect, it } from 'vitest';
import { InMemoryCheckpointStore } from '../testing/in-memory-checkpoint-store.ts';
import { PortCheckpointSaver } from './port-checkpoint-saver.ts';
import { checkpointsOfVisits, readStepCheckpoints } from './step-checkpoints.ts';

const State = Annotation.Root({
  round: Annotation<number>({ reducer: (_, next) => next, default: () => 0 }),
  feedback: Annotation<string | null>({ reducer: (_, next) => next, default: () => null }),
  accepted: Annotation<boolean>({ reducer: (_, next) => next, default: () => false }),
});

/** draft → review (the person accepts or gives feedback: another draft). */
function draftingGraph(saver: PortCheckpointSaver) {
  return new StateGraph(State)
    .addNode('prepare', () => ({}))
    .addNode('draft', (s) => ({ round: s.round + 1 }))
    .addNode('review', () => {
      const reply = interrupt<string, string>('ok?');
      return reply === 'yes' ? { accepted: true } : { accepted: false, feedback: reply };
    })
    .addEdge(START, 'prepare')
    .addEdge('prepare', 'draft')
    .addEdge('draft', 'review')
    .addConditionalEdges('review', (s) => (s.accepted ? 'done' : 'again'), { done: END, again: 'draft' })
    .compile({ checkpointer: saver });
}

const thread = (id: string) => ({ configurable: { thread_id: id }, durability: 'async' as const });

describe('step checkpoints', () => {
  it("should say which steps each checkpoint runs next, as LangGraph's own state history does", async () => {
    const rows = new InMemoryCheckpointStore();
    const graph = draftingGraph(new PortCheckpointSaver(rows));
    await graph.invoke({}, thread('t'));
    await graph.invoke(new Command({ resume: 'shorter' }), thread('t'));
    await graph.invoke(new Command({ resume: 'yes' }), thread('t'));

    const history = [];
    for await (const s of graph.getStateHistory(thread('t'))) history.unshift(s);
    const read = await readStepCheckpoints(rows.checkpoints);
    expect(read.map((c) => c.next)).toEqual(history.map((s) => [...s.next]));
    expect(read.map((c) => c.values)).toMatchObject(history.map((s) => s.values));
  });

  it('should give each visit of a loop the checkpoint it started from, and a fork its own after the update', async () => {
    const rows = new InMemoryCheckpointStore();
    const graph = draftingGraph(new PortCheckpointSaver(rows));
    await graph.invoke({}, thread('t'));
    await graph.invoke(new Command({ resume: 'shorter' }), thread('t'));
    await graph.invoke(new Command({ resume: 'yes' }), thread('t'));
    const visits = ['prepare', 'draft', 'review', 'draft', 'review'];
    const mapped = checkpointsOfVisits(await readStepCheckpoints(rows.checkpoints), visits);
    expect(mapped.map((c) => c?.values.round)).toEqual([0, 0, 1, 1, 2]);
    expect(mapped[3]?.values.feedback).toBe('shorter');

    // A fork of the first draft: a copy of its checkpoint, the person's change as a state update, and on.
    const first = rows.checkpoints.find((r) => r.checkpointId === mapped[1]!.checkpointId)!;
    rows.checkpoints.push({ ...structuredClone(first), threadId: 'fork', parentCheckpointId: null });
    await graph.updateState(thread('fork'), { feedback: 'another' });
    const forked = await graph.invoke(null, thread('fork'));
    expect(forked.round).toBe(1);
    const forkRows = rows.checkpoints.filter((r) => r.threadId === 'fork');
    const forkMapped = checkpointsOfVisits(await readStepCheckpoints(forkRows), ['draft', 'review']);
    expect(forkMapped.map((c) => [c?.source, c?.values.round, c?.values.feedback])).toEqual([
      ['update', 0, 'another'],
      ['loop', 1, 'another'],
    ]);

    // A fork of that fork's first step: its copy is an update checkpoint too, and its own update comes after.
    const forkStart = forkRows.find((r) => r.checkpointId === forkMapped[0]!.checkpointId)!;
    rows.checkpoints.push({ ...structuredClone(forkStart), threadId: 'fork2', parentCheckpointId: null });
    await graph.updateState(thread('fork2'), { feedback: 'yet another' });
    await graph.invoke(null, thread('fork2'));
    const fork2Rows = rows.checkpoints.filter((r) => r.threadId === 'fork2');
    const fork2Mapped = checkpointsOfVisits(await readStepCheckpoints(fork2Rows), ['draft', 'review']);
    expect(fork2Mapped.map((c) => c?.values.feedback)).toEqual(['yet another', 'yet another']);
  });

  it('should give no checkpoint to a visit whose checkpoint is not stored', async () => {
    const rows = new InMemoryCheckpointStore();
    // Stored only when the drive stops (the pause): the visits before it have none.
    await draftingGraph(new PortCheckpointSaver(rows)).invoke({}, { ...thread('t'), durability: 'exit' });
    const mapped = checkpointsOfVisits(await readStepCheckpoints(rows.checkpoints), ['prepare', 'draft', 'review']);
    expect(mapped.map((c) => c?.next ?? null)).toEqual([null, null, ['review']]);
  });
});
