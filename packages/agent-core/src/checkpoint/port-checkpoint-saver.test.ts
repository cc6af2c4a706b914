import { Annotation, Command, END, INTERRUPT, interrupt, isInterrupted, START, StateGraph } from '@langchain/langgraph';
import { describe, expect, it } from 'vitest';
import { InMemoryCheckpointStore } from '../testing/in-memory-checkpoint-store.ts';
import { PortCheckpointSaver } from './port-checkpoint-saver.ts';

const State = Annotation.Root({
  draft: Annotation<string>({ reducer: (_, next) => next, default: () => '' }),
  log: Annotation<string[]>({ reducer: (a, b) => [...a, ...b], default: () => [] }),
});

function askingGraph(saver: PortCheckpointSaver) {
  return new StateGraph(State)
    .addNode('write', () => ({ draft: 'first draft', log: ['write'] }))
    .addNode('ask', (state) => {
      const reply = interrupt<{ question: string }, string>({ question: `Is "${state.draft}" right?` });
      return { draft: `${state.draft} + ${reply}`, log: ['ask'] };
    })
    .addEdge(START, 'write')
    .addEdge('write', 'ask')
    .addEdge('ask', END)
    .compile({ checkpointer: saver });
}

const thread = (id: string) => ({ configurable: { thread_id: id } });

describe('PortCheckpointSaver', () => {
  it('should resume a waiting run through a new saver over the same rows (a restart)', async () => {
    const rows = new InMemoryCheckpointStore();
    const paused = await askingGraph(new PortCheckpointSaver(rows)).invoke({}, thread('t1'));
    if (!isInterrupted(paused)) throw new Error('expected the run to wait');
    expect(paused[INTERRUPT][0]?.value).toEqual({ question: 'Is "first draft" right?' });
    expect(rows.checkpoints.length).toBeGreaterThan(0);

    const restarted = askingGraph(new PortCheckpointSaver(rows));
    const done = await restarted.invoke(new Command({ resume: '修改一下' }), thread('t1'));
    expect(done.draft).toBe('first draft + 修改一下');
    expect(done.log).toEqual(['write', 'ask']);
  });

  it('should keep threads apart and list a thread newest first', async () => {
    const rows = new InMemoryCheckpointStore();
    const saver = new PortCheckpointSaver(rows);
    await askingGraph(saver).invoke({}, thread('a'));
    await askingGraph(saver).invoke({}, thread('b'));
    const listed = [];
    for await (const tuple of saver.list(thread('a'))) listed.push(tuple);
    expect(listed.length).toBeGreaterThan(1);
    expect(listed.every((t) => t.config.configurable?.thread_id === 'a')).toBe(true);
    const ids = listed.map((t) => t.checkpoint.id);
    expect([...ids].sort().reverse()).toEqual(ids);
    expect(listed[0]?.parentConfig?.configurable?.checkpoint_id).toBe(ids[1]);
  });

  it('should honour limit and metadata filters when listing', async () => {
    const saver = new PortCheckpointSaver(new InMemoryCheckpointStore());
    await askingGraph(saver).invoke({}, thread('a'));
    const limited = [];
    for await (const tuple of saver.list(thread('a'), { limit: 1 })) limited.push(tuple);
    expect(limited).toHaveLength(1);
    const inputs = [];
    for await (const tuple of saver.list(thread('a'), { filter: { source: 'input' } })) inputs.push(tuple);
    expect(inputs.map((t) => t.metadata?.source)).toEqual(['input']);
  });

  it('should forget a thread when it is deleted', async () => {
    const rows = new InMemoryCheckpointStore();
    const saver = new PortCheckpointSaver(rows);
    await askingGraph(saver).invoke({}, thread('gone'));
    await saver.deleteThread('gone');
    expect(await saver.getTuple(thread('gone'))).toBeUndefined();
    expect(rows.writes.size).toBe(0);
  });
});
