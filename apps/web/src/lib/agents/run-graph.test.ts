import { agentGraphTopologies } from '@thinkingmap/agent-core';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../i18n/messages.ts';
import { type AgentGraph, edgePath, layoutRunGraph, type PathStep } from './run-graph.ts';
import { stepLabel } from './step-label.ts';

const graphs = (await agentGraphTopologies()) as AgentGraph[];
const processNode = graphs.find((g) => g.name === 'process-node')!;

const visit = (step: string, round = 1, outcome: string | null = 'done') => ({ step, round, outcome }) as PathStep;
const label = (step: string) => stepLabel(step, 'en');
const branch = (key: string) => key;

describe('layoutRunGraph', () => {
  it('should place every step of the graph apart from the others', () => {
    const laid = layoutRunGraph(processNode, null, label, branch);
    expect(laid.nodes.map((n) => n.id).sort()).toEqual(processNode.nodes.map((n) => n.id).sort());
    for (const a of laid.nodes)
      for (const b of laid.nodes) {
        if (a === b) continue;
        const apart =
          Math.abs(a.x - b.x) >= (a.width + b.width) / 2 || Math.abs(a.y - b.y) >= (a.height + b.height) / 2;
        expect(apart, `${a.id} overlaps ${b.id}`).toBe(true);
      }
    expect(laid.edges.every((e) => e.points.length >= 2)).toBe(true);
    expect(laid.width).toBeGreaterThan(0);
  });

  it('should put a feedback loop on the drawing as a second round along the loop edge', () => {
    const steps = [
      visit('collectContext'),
      visit('checkDependencies'),
      visit('recognizeIntent'),
      visit('draftConclusion'),
      visit('reviewConclusion'),
      visit('draftConclusion', 2),
      visit('reviewConclusion', 2, 'interrupted'),
    ];
    const laid = layoutRunGraph(processNode, { steps, current: 'reviewConclusion' }, label, branch);
    const node = (id: string) => laid.nodes.find((n) => n.id === id)!;
    expect(node('draftConclusion')).toMatchObject({ visits: [4, 6], outcome: 'done', current: false });
    expect(node('reviewConclusion')).toMatchObject({ visits: [5, 7], outcome: 'interrupted', current: true });
    expect(node('saveConclusion')).toMatchObject({ visits: [], outcome: null });
    const edge = (source: string, target: string) =>
      laid.edges.find((e) => e.source === source && e.target === target)!;
    expect(edge('reviewConclusion', 'draftConclusion')).toMatchObject({
      branch: 'feedback',
      traversals: [{ to: 6, round: 2 }],
      loops: true,
    });
    expect(edge('draftConclusion', 'reviewConclusion').traversals).toEqual([
      { to: 5, round: 1 },
      { to: 7, round: 2 },
    ]);
    expect(edge('__start__', 'collectContext').traversals).toEqual([{ to: 1, round: 1 }]);
    expect(laid.nodes.find((n) => n.id === '__end__')!.outcome).toBeNull();
  });

  it('should end the path at the end once the run is done', () => {
    const steps = [visit('collectContext'), visit('checkDependencies')];
    const laid = layoutRunGraph(processNode, { steps, current: null }, label, branch);
    expect(laid.nodes.find((n) => n.id === '__end__')!.outcome).toBe('done');
  });

  it('should have words for every branch of every graph in English and Chinese', () => {
    for (const graph of graphs)
      for (const e of graph.edges.filter((e) => e.label)) {
        const key = `runView.branch.${e.label}` as keyof typeof MESSAGES;
        expect(MESSAGES[key], `no words for the branch "${e.label}"`).toBeDefined();
      }
  });

  it('should draw an edge through its points', () => {
    expect(
      edgePath([
        { x: 0, y: 0 },
        { x: 0, y: 10 },
      ]),
    ).toBe('M0,0 L0,10');
    expect(
      edgePath([
        { x: 0, y: 0 },
        { x: 10, y: 10 },
        { x: 20, y: 0 },
      ]),
    ).toBe('M0,0 Q10,10 15,5 L20,0');
  });
});
