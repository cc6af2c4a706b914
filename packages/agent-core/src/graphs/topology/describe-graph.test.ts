import { Annotation, END, START, StateGraph } from '@langchain/langgraph';
import { describe, expect, it } from 'vitest';
import { criticStore } from '../../testing/in-memory-critic-store.ts';
import { InMemoryStore } from '../../testing/in-memory-store.ts';
import { RecordingEvents } from '../../testing/recording-events.ts';
import { ScriptedModel } from '../../testing/scripted-model.ts';
import { StepKind, stepKind } from '../shared/step-kind.ts';
import { AGENT_GRAPHS, agentGraphTopologies } from './agent-graphs.ts';
import { describeGraph } from './describe-graph.ts';

const Loop = Annotation.Root({ done: Annotation<boolean> });

function loopGraph(extraEdge: boolean) {
  const graph = new StateGraph(Loop)
    .addNode('draft', async () => ({}), stepKind(StepKind.AGENT))
    .addNode('review', async () => ({}), stepKind(StepKind.HUMAN))
    .addNode('save', async () => ({}), stepKind(StepKind.TOOL))
    .addEdge(START, 'draft')
    .addEdge('draft', 'review')
    .addConditionalEdges('review', (s) => (s.done ? 'accepted' : 'feedback'), { accepted: 'save', feedback: 'draft' });
  return (extraEdge ? graph.addEdge('save', 'draft') : graph.addEdge('save', END)).compile();
}

describe('describeGraph', () => {
  it('should list every node and edge of the compiled graph, with kinds, branch labels and interrupt points', async () => {
    for (const topology of await agentGraphTopologies()) {
      const create = AGENT_GRAPHS[topology.name as keyof typeof AGENT_GRAPHS];
      expect(create).toBeDefined();
      const store = new InMemoryStore();
      const runnable = {
        model: new ScriptedModel({}),
        store,
        events: new RecordingEvents(),
        critic: criticStore(store),
      };
      // Building reads no port but the events one; the graphs that need more ports are never run here.
      const drawn = await create(runnable as never).getGraphAsync();
      expect(topology.nodes.map((n) => n.id).sort()).toEqual(Object.keys(drawn.nodes).sort());
      expect(topology.edges.map((e) => `${e.source}->${e.target}:${e.conditional}`).sort()).toEqual(
        drawn.edges.map((e) => `${e.source}->${e.target}:${Boolean(e.conditional)}`).sort(),
      );
      for (const node of topology.nodes) {
        if (node.id === START || node.id === END) continue;
        expect(drawn.nodes[node.id]?.metadata?.kind).toBe(node.kind);
      }
      expect(topology.interruptPoints).toEqual(topology.nodes.filter((n) => n.kind === 'HUMAN').map((n) => n.id));
    }
  });

  it('should name the branches of the process-node graph and its human review loops', async () => {
    const topologies = await agentGraphTopologies();
    const processNode = topologies.find((t) => t.name === 'process-node')!;
    const branch = (source: string, label: string) =>
      processNode.edges.find((e) => e.source === source && e.label === label)?.target;
    expect(branch('reviewConclusion', 'feedback')).toBe('draftConclusion');
    expect(branch('reviewConclusion', 'accepted')).toBe('saveConclusion');
    expect(branch('reviewProposal', 'rejected')).toBe('proposeSubQuestions');
    expect(branch('recognizeIntent', 'clarify')).toBe('formulateQuestion');
    expect(branch('checkDependencies', 'blocked')).toBe(END);
    expect(processNode.interruptPoints.sort()).toEqual(['reviewConclusion', 'reviewProposal', 'waitForAnswer']);
    const understand = topologies.find((t) => t.name === 'understand-problem')!;
    expect(understand.nodes.find((n) => n.id === 'restateProblem')?.kind).toBe('AGENT');
    expect(understand.edges.find((e) => e.label === 'corrected')?.target).toBe('restateProblem');
  });

  it('should draw the divergent and consultation graphs with their branches and the divergent review pause', async () => {
    const topologies = await agentGraphTopologies();
    expect(topologies.map((t) => t.name).sort()).toEqual(Object.keys(AGENT_GRAPHS).sort());
    const divergent = topologies.find((t) => t.name === 'divergent')!;
    const branch = (graph: typeof divergent, source: string, label: string) =>
      graph.edges.find((e) => e.source === source && e.label === label)?.target;
    expect(branch(divergent, 'evaluateCompletion', 'deeper')).toBe('planTasks');
    expect(branch(divergent, 'closeLevel', 'summarize')).toBe('writeSummary');
    expect(branch(divergent, 'createTasks', 'runTasks')).toBe('runTask');
    expect(divergent.interruptPoints).toEqual(['reviewTasks']);
    const consultation = topologies.find((t) => t.name === 'consultation')!;
    expect(branch(consultation, 'planner_agent', 'record')).toBe('db_writer');
    expect(branch(consultation, 'db_writer', 'plan')).toBe('planner_agent');
    // The planner starts beside the front agent, not after it.
    expect(branch(consultation, 'initial_setup', 'answer')).toBe('front_agent');
    expect(branch(consultation, 'initial_setup', 'plan')).toBe('planner_agent');
    expect(consultation.edges.filter((e) => e.source === 'front_agent').map((e) => e.target)).not.toContain(
      'planner_agent',
    );
    expect(consultation.nodes.find((n) => n.id === 'front_agent')?.kind).toBe('AGENT');
  });

  it('should change when the graph changes', async () => {
    const before = await describeGraph('loop', loopGraph(false));
    const after = await describeGraph('loop', loopGraph(true));
    expect(before.edges).toContainEqual({ source: 'save', target: END, conditional: false, label: null });
    expect(after.edges).toContainEqual({ source: 'save', target: 'draft', conditional: false, label: null });
    expect(after.nodes.map((n) => n.id)).not.toContain(END);
    expect(before.edges).toContainEqual({ source: 'review', target: 'draft', conditional: true, label: 'feedback' });
  });

  it('should refuse a step added without its kind', async () => {
    const unmarked = new StateGraph(Loop)
      .addNode('draft', async () => ({}))
      .addEdge(START, 'draft')
      .compile();
    await expect(describeGraph('unmarked', unmarked)).rejects.toThrow(/without its kind/);
  });
});
