import { MemorySaver } from '@langchain/langgraph';
import { describe, expect, it } from 'vitest';
import { OfflineModel } from '../../model/offline-model.ts';
import { criticChange, criticFinding } from '../../testing/critic-answers.ts';
import { criticStore } from '../../testing/in-memory-critic-store.ts';
import { InMemoryStore } from '../../testing/in-memory-store.ts';
import { RecordingEvents } from '../../testing/recording-events.ts';
import { ScriptedModel } from '../../testing/scripted-model.ts';
import { createCriticGraph } from './graph.ts';

async function setUp(model: ScriptedModel | OfflineModel) {
  const store = new InMemoryStore();
  const map = store.addMap({ problem: 'Open a bakery?' });
  const root = await store.createNode({ mapId: map.id, parentId: null, question: 'Open a bakery?', goal: 'decide' });
  const rent = await store.createNode({ mapId: map.id, parentId: root.id, question: 'Rent?', goal: 'cost' });
  const lease = await store.createNode({ mapId: map.id, parentId: root.id, question: 'Lease cost?', goal: 'cost' });
  const critic = criticStore(store);
  const events = new RecordingEvents();
  const graph = createCriticGraph({ model, store, events, critic }, { checkpointer: new MemorySaver() });
  return { store, map, root, rent, lease, critic, events, graph };
}

describe('critic graph', () => {
  it('should post valid findings as suggestions with node ids and versions, dropping what names no node', async () => {
    const model = new ScriptedModel({
      critic: [
        {
          summary: 'Two questions overlap and demand is missing.',
          findings: [
            criticFinding(
              'OVERLAP',
              ['n2', 'n3'],
              'Same cost.',
              criticChange('EDIT_QUESTION', 'n3', { question: 'Equipment cost?' }),
            ),
            criticFinding(
              'GAP',
              ['n1'],
              'No demand.',
              criticChange('ADD_SUB_QUESTION', 'n1', { question: 'Demand?', goal: 'size' }),
            ),
            criticFinding('GAP', ['n9'], 'Unknown node.', criticChange('ADD_SUB_QUESTION', 'n9', { question: 'x' })),
            criticFinding('UNSUPPORTED', ['n2'], 'No conclusion to redo.', criticChange('REDO_CONCLUSION', 'n2')),
          ],
        },
      ],
    });
    const { map, root, rent, lease, critic, events, graph } = await setUp(model);
    const out = await graph.invoke({ mapId: map.id }, { configurable: { thread_id: 'critic-1' } });
    expect(out.suggestionIds).toHaveLength(2);
    expect(out.dropped).toBe(2);
    expect(critic.posted.map((s) => s.change)).toEqual([
      { command: 'EDIT_QUESTION', nodeId: lease.id, question: 'Equipment cost?', goal: null },
      { command: 'ADD_SUB_QUESTION', parentId: root.id, question: 'Demand?', goal: 'size' },
    ]);
    expect(critic.posted[0]).toMatchObject({ kind: 'OVERLAP', nodeIds: [rent.id, lease.id], runId: 'critic-1' });
    expect(critic.posted[0]?.nodeVersions).toEqual({ [rent.id]: 1, [lease.id]: 1 });
    expect(events.lines.filter((l) => l.startsWith('left'))).toEqual([
      'left readScope done',
      'left reviewScope done',
      'left postSuggestions done',
    ]);
  });

  it('should not post a finding the person dismissed while the nodes it concerns are unchanged', async () => {
    const gap = criticFinding(
      'GAP',
      ['n1'],
      'No demand.',
      criticChange('ADD_SUB_QUESTION', 'n1', { question: 'Demand?' }),
    );
    const model = new ScriptedModel({ critic: [{ summary: 'A gap.', findings: [gap] }] });
    const { map, root, critic, graph } = await setUp(model);
    const change = { command: 'ADD_SUB_QUESTION' as const, parentId: root.id, question: 'demand', goal: '' };
    const dismissal = { kind: 'GAP' as const, nodeIds: [root.id], explanation: 'No demand.', change };
    critic.dismissed.push({ ...dismissal, nodeVersions: { [root.id]: 1 } });
    const out = await graph.invoke({ mapId: map.id }, { configurable: { thread_id: 'c-3' } });
    expect(out).toMatchObject({ suggestionIds: [], repeated: 1, dropped: 0 });
    expect(critic.posted).toEqual([]);
  });

  it('should review only the subtree under a node, and post nothing when the offline model finds nothing', async () => {
    const { map, rent, critic, events, graph } = await setUp(new OfflineModel());
    const out = await graph.invoke({ mapId: map.id, scopeNodeId: rent.id }, { configurable: { thread_id: 'c-2' } });
    expect(out.scope?.nodes.map((n) => n.id)).toEqual([rent.id]);
    expect(out.suggestionIds).toEqual([]);
    expect(critic.posted).toEqual([]);
    expect(events.lines.filter((l) => l.startsWith('left'))).toEqual(['left readScope done', 'left reviewScope done']);
  });
});
