import { Command, INTERRUPT, isInterrupted, MemorySaver } from '@langchain/langgraph';
import { describe, expect, it } from 'vitest';
import { detectLanguage } from '../../language/detect-language.ts';
import { OfflineModel } from '../../model/offline-model.ts';
import { InMemoryStore } from '../../testing/in-memory-store.ts';
import { RecordingEvents } from '../../testing/recording-events.ts';
import { ScriptedModel } from '../../testing/scripted-model.ts';
import { createUnderstandProblemGraph } from './graph.ts';

const config = { configurable: { thread_id: 'understand-1' } };
const understanding = (problem: string, constraints: string[] = []) => ({
  title: problem.slice(0, 20),
  problem,
  goal: 'choose well',
  constraints,
});

function setUp(model: ConstructorParameters<typeof ScriptedModel>[0] | 'offline', problem: string) {
  const store = new InMemoryStore();
  const map = store.addMap({ problem });
  const events = new RecordingEvents();
  const scripted = model === 'offline' ? new OfflineModel() : new ScriptedModel(model);
  const graph = createUnderstandProblemGraph({ model: scripted, store, events }, { checkpointer: new MemorySaver() });
  return { store, map, events, graph, model: scripted };
}

describe('problem understanding graph', () => {
  it('should loop on a correction until the person confirms, then create the root node', async () => {
    const { store, map, events, graph, model } = setUp(
      {
        understand: [
          understanding('Pick a laptop'),
          understanding('Pick a laptop for video editing', ['under 2000 EUR']),
        ],
      },
      'I need a laptop',
    );
    const first = await graph.invoke({ mapId: map.id, problem: 'I need a laptop' }, config);
    if (!isInterrupted(first)) throw new Error('should wait for confirmation');
    expect(first[INTERRUPT][0]?.value).toMatchObject({
      kind: 'confirm-understanding',
      context: { understanding: { problem: 'Pick a laptop' } },
    });
    expect(store.nodes.size).toBe(0);

    const second = await graph.invoke(
      new Command({ resume: { correction: 'it is for video editing, under 2000 EUR' } }),
      config,
    );
    if (!isInterrupted(second)) throw new Error('should wait for confirmation again');
    // The second question carries the exchange so far: the first restatement and the person's correction.
    expect(second[INTERRUPT][0]?.value).toMatchObject({
      context: {
        understanding: { problem: 'Pick a laptop for video editing' },
        history: [
          { understanding: { problem: 'Pick a laptop' }, correction: 'it is for video editing, under 2000 EUR' },
        ],
      },
    });
    const done = await graph.invoke(new Command({ resume: { confirm: true } }), config);

    expect(done.rounds).toBe(2);
    const root = store.nodes.get(done.rootNodeId!);
    expect(root).toMatchObject({
      question: 'Pick a laptop for video editing',
      parentId: null,
      type: 'ROOT',
      constraints: ['under 2000 EUR'],
    });
    expect(store.maps.get(map.id)).toMatchObject({ goal: 'choose well', language: 'en' });
    expect((model as ScriptedModel).calls).toEqual(['understand', 'understand']);
    expect(events.questions).toHaveLength(2);
    expect(events.lines.filter((l) => l.startsWith('question'))).toEqual([
      'question confirm-understanding',
      'question confirm-understanding',
    ]);
  });

  it('should apply direct edits given with the confirmation', async () => {
    const { store, map, graph } = setUp({ understand: [understanding('Pick a laptop')] }, 'laptop?');
    await graph.invoke({ mapId: map.id, problem: 'laptop?' }, config);
    const done = await graph.invoke(
      new Command({ resume: { confirm: true, edits: { goal: 'buy by Friday' } } }),
      config,
    );
    expect(store.nodes.get(done.rootNodeId!)?.goal).toBe('buy by Friday');
  });

  it('should detect a Chinese problem and work offline with labelled answers', async () => {
    const { store, map, graph } = setUp('offline', '我要不要读研究生？');
    await graph.invoke({ mapId: map.id, problem: '我要不要读研究生？' }, config);
    const done = await graph.invoke(new Command({ resume: { confirm: true } }), config);
    expect(done.language).toBe('zh');
    expect(store.maps.get(map.id)?.language).toBe('zh');
    expect(store.nodes.get(done.rootNodeId!)?.question).toBe('我要不要读研究生？');
  });

  it('should write in the language the one detector reads in a mixed problem', async () => {
    const problem = '我们 Should we migrate our backend from Python to Go';
    const { graph, map } = setUp('offline', problem);
    await graph.invoke({ mapId: map.id, problem }, config);
    expect((await graph.getState(config)).values.language).toBe(detectLanguage(problem));
    expect(detectLanguage(problem)).toBe('en');
  });

  it('should never create the root on an expired question: confirming is the person’s gate', async () => {
    const { store, map, graph } = setUp({ understand: [understanding('Pick a laptop')] }, 'laptop?');
    await graph.invoke({ mapId: map.id, problem: 'laptop?' }, config);
    await expect(graph.invoke(new Command({ resume: { expired: true } }), config)).rejects.toThrow();
    expect(store.nodes.size).toBe(0);
  });

  it('should refuse a malformed reply instead of guessing', async () => {
    const { map, graph } = setUp({ understand: [understanding('Pick a laptop')] }, 'laptop?');
    await graph.invoke({ mapId: map.id, problem: 'laptop?' }, config);
    await expect(graph.invoke(new Command({ resume: { yes: 'please' } }), config)).rejects.toThrow();
  });
});
