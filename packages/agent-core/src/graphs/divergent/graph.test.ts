import { describe, expect, it } from 'vitest';
import { divergentGraph, divergentMap, nodesOf, plan, ScriptedSkills, scored, task } from './graph.test-helpers.ts';

const config = { configurable: { thread_id: 'session-1' } };

describe('divergent exploration: the loop', () => {
  it('should run three levels for scores 0.5, 0.8 and 0.95, then write the final output', async () => {
    const { store, root } = await divergentMap();
    const { graph, model, events } = divergentGraph(store, {
      diverge: [
        'summary 0',
        plan(task('market'), task('rent')),
        'summary 1',
        plan(task('staff')),
        'summary 2',
        plan(task('menu'), task('permits')),
        'summary 3',
        '# Final document [L1.T1]',
      ],
      evaluate: [scored(0.5), scored(0.8), scored(0.95)],
    });
    const done = await graph.invoke({ nodeId: root.id }, config);

    expect(done.outcome).toBe('FINISHED');
    expect(done.scores.map((s) => [s.level, s.overall])).toEqual([
      [1, 0.5],
      [2, 0.8],
      [3, 0.95],
    ]);
    const summaries = nodesOf(store, 'SUMMARY');
    expect(summaries.map((n) => [n.divergentLevel, n.conclusion, n.completionScore ?? null])).toEqual([
      [0, 'summary 0', null],
      [1, 'summary 1', 0.5],
      [2, 'summary 2', 0.8],
      [3, 'summary 3', 0.95],
    ]);
    expect(summaries[0]!.parentId).toBe(root.id);
    const tasks = nodesOf(store, 'TASK');
    expect(tasks.map((n) => [n.divergentLevel, n.question, n.status])).toEqual([
      [1, 'market', 'COMPLETED'],
      [1, 'rent', 'COMPLETED'],
      [2, 'staff', 'COMPLETED'],
      [3, 'menu', 'COMPLETED'],
      [3, 'permits', 'COMPLETED'],
    ]);
    // A level's tasks hang under the summary they were planned from; the next summary converges them.
    expect(tasks.filter((t) => t.divergentLevel === 1).map((t) => t.parentId)).toEqual([
      summaries[0]!.id,
      summaries[0]!.id,
    ]);
    expect(summaries[1]!.parentId).toBe(summaries[0]!.id);
    expect(store.dependencies.filter((d) => d.nodeId === summaries[1]!.id).map((d) => d.dependsOnId)).toEqual([
      tasks[0]!.id,
      tasks[1]!.id,
    ]);
    const [final] = nodesOf(store, 'FINAL');
    expect(final).toMatchObject({
      parentId: summaries[3]!.id,
      conclusion: '# Final document [L1.T1]\n\n## Sources\n\n- [L1.T1] market',
      status: 'COMPLETED',
    });
    expect(done.finalNodeId).toBe(final!.id);
    expect(done.note).toContain('0.95 reached the threshold 0.9');
    const reasons = store.messages.find((m) => m.nodeId === summaries[2]!.id && m.metadata?.completion);
    expect(reasons?.content).toContain('Intent match (40%): 0.8 — intent 0.8');
    expect(model.calls.filter((a) => a === 'evaluate')).toHaveLength(3);
    expect(events.lines).toContain('left runTask done');
    // Each parallel task's step is named by its task, entering and leaving (the other steps run once: no branch).
    expect(events.branches.filter((b) => b.startsWith('left')).sort()).toEqual([
      'left runTask L1.T1 done',
      'left runTask L1.T2 done',
      'left runTask L2.T1 done',
      'left runTask L3.T1 done',
      'left runTask L3.T2 done',
    ]);
    expect(events.branches.filter((b) => b.startsWith('entered'))).toHaveLength(5);
    expect(events.tokens).toContain('result of market');
    const progress = events.divergentProgress;
    expect(progress.filter((p) => p.type === 'DivergentLevelStarted').map((p) => p.payload.level)).toEqual([1, 2, 3]);
    expect(progress.filter((p) => p.type === 'DivergentTaskFinished')).toHaveLength(5);
    expect(progress.at(-1)).toMatchObject({
      type: 'DivergentFinished',
      payload: { outcome: 'FINISHED', level: 3, drewOn: ['L1.T1'] },
    });
  });

  it('should compute the overall score in code from the three weighted dimensions', async () => {
    const { store, root } = await divergentMap();
    const evaluation = {
      completeness: { score: 1, reason: 'all there' },
      intentMatch: { score: 0.5, reason: 'half of it' },
      quality: { score: 0, reason: 'unclear' },
    };
    const { graph } = divergentGraph(store, {
      diverge: ['s0', plan(task('a')), 's1', plan(), 'final'],
      evaluate: [evaluation],
    });
    const done = await graph.invoke({ nodeId: root.id }, config);
    expect(done.scores[0]).toMatchObject({ overall: 0.6, quality: { reason: 'unclear' } });
    expect(nodesOf(store, 'SUMMARY')[1]!.completionScore).toBe(0.6);
  });

  it('should stop after five levels with the final output and a note when the threshold is never reached', async () => {
    const { store, root } = await divergentMap();
    const diverge: unknown[] = ['s0'];
    for (let level = 1; level <= 5; level += 1) diverge.push(plan(task(`t${level}`)), `s${level}`);
    diverge.push('final');
    const { graph } = divergentGraph(store, { diverge, evaluate: [0.3, 0.4, 0.5, 0.6, 0.7].map(scored) });
    const done = await graph.invoke({ nodeId: root.id, maxLevels: 9 }, config);
    expect(done.maxLevels).toBe(5);
    expect(nodesOf(store, 'SUMMARY').map((n) => n.divergentLevel)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(nodesOf(store, 'FINAL')).toHaveLength(1);
    expect(done.note).toBe(
      'Stopped after 5 levels below the threshold 0.9 (last score 0.7); the final output is written from what was found.',
    );
    const finalId = nodesOf(store, 'FINAL')[0]!.id;
    expect(store.messages.find((m) => m.nodeId === finalId && m.kind === 'NOTICE')?.content).toBe(done.note);
  });

  it('should run the 8 tasks of highest priority when 12 are proposed and list the other 4 as dropped', async () => {
    const { store, root } = await divergentMap();
    const proposed = Array.from({ length: 12 }, (_, i) => task(`task ${i + 1}`, (i % 5) + 1));
    const { graph, skills } = divergentGraph(store, {
      diverge: ['s0', plan(...proposed), 's1', 'final'],
      evaluate: [scored(0.95)],
    });
    const done = await graph.invoke({ nodeId: root.id, maxParallel: 12 }, config);
    expect(done.maxParallel).toBe(8);
    const ran = (skills as ScriptedSkills).runs;
    expect(ran).toHaveLength(8);
    // Priorities 1..5 repeating: the three of priority 1 and the last of priority 2 are dropped.
    const over = 'over the limit of 8 parallel tasks per level';
    expect(done.dropped.map((d) => [d.name, d.priority, d.reason])).toEqual([
      ['task 12', 2, over],
      ['task 1', 1, over],
      ['task 6', 1, over],
      ['task 11', 1, over],
    ]);
    expect(nodesOf(store, 'TASK').map((n) => n.question)).toEqual([
      'task 5',
      'task 10',
      'task 4',
      'task 9',
      'task 3',
      'task 8',
      'task 2',
      'task 7',
    ]);
  });

  it('should offer the planner only the configured skills and drop a task asking for another', async () => {
    const { store, root } = await divergentMap();
    const { graph, model } = divergentGraph(store, {
      diverge: ['s0', plan(task('news', 5, 'webSearch'), task('market')), 's1', 'final'],
      evaluate: [scored(1)],
    });
    const done = await graph.invoke({ nodeId: root.id }, config);
    const planPrompt = model.requests[1]!.messages.at(-1)!.content;
    expect(planPrompt).toContain('- commonQnA:');
    expect(planPrompt).not.toContain('webSearch');
    expect(done.dropped).toMatchObject([{ name: 'news', reason: 'skill not available: webSearch is not configured' }]);
    expect(nodesOf(store, 'TASK').map((n) => n.question)).toEqual(['market']);
  });

  it('should run a level of tasks in parallel', async () => {
    const { store, root } = await divergentMap();
    let started = 0;
    let releaseAll: () => void = () => {};
    const allStarted = new Promise<void>((resolve) => {
      releaseAll = resolve;
    });
    const waitForTheOthers = async () => {
      started += 1;
      if (started === 3) releaseAll();
      await allStarted; // a level run one task after another would never get here
      return { text: 'done together', sources: [] };
    };
    const skills = new ScriptedSkills({ a: waitForTheOthers, b: waitForTheOthers, c: waitForTheOthers });
    const { graph } = divergentGraph(
      store,
      { diverge: ['s0', plan(task('a'), task('b'), task('c')), 's1', 'final'], evaluate: [scored(1)] },
      { skills },
    );
    const done = await graph.invoke({ nodeId: root.id }, config);
    expect(done.results.map((r) => r.status)).toEqual(['DONE', 'DONE', 'DONE']);
  });

  it('should write the final output at once when the planner proposes no task', async () => {
    const { store, root } = await divergentMap();
    const { graph, model } = divergentGraph(store, { diverge: ['s0', plan(), 'final answer'] });
    const done = await graph.invoke({ nodeId: root.id }, config);
    expect(nodesOf(store, 'TASK')).toEqual([]);
    expect(nodesOf(store, 'FINAL')[0]).toMatchObject({
      conclusion: 'final answer\n\n## Sources\n\nNo task of this session finished; nothing was drawn on.',
      divergentLevel: 0,
    });
    expect(done.note).toBe('The planner proposed no further task; the final output is written from what was found.');
    expect(model.calls).toEqual(['diverge', 'diverge', 'diverge']);
  });
});

describe('divergent exploration: failures', () => {
  it('should record a failed task with its reason and converge the others', async () => {
    const { store, root } = await divergentMap();
    const skills = new ScriptedSkills({ rent: new Error('the rent index did not answer') });
    const { graph, model } = divergentGraph(
      store,
      { diverge: ['s0', plan(task('market'), task('rent')), 's1', 'final'], evaluate: [scored(0.9)] },
      { skills },
    );
    const done = await graph.invoke({ nodeId: root.id }, config);
    expect(done.outcome).toBe('FINISHED');
    const [market, rent] = nodesOf(store, 'TASK');
    expect(rent).toMatchObject({ status: 'FAILED' });
    expect(store.log).toContain(`setNodeStatus ${rent!.id} FAILED the rent index did not answer`);
    expect(done.results.find((r) => r.name === 'rent')).toMatchObject({
      status: 'FAILED',
      reason: 'the rent index did not answer',
    });
    const s1 = nodesOf(store, 'SUMMARY')[1]!;
    expect(store.dependencies.filter((d) => d.nodeId === s1.id).map((d) => d.dependsOnId)).toEqual([market!.id]);
    const converge = model.requests[2]!.messages.at(-1)!.content;
    expect(converge).toContain('[L1.T1] market');
    expect(converge).not.toContain('rent');
  });

  it('should end the session with a notice and no final output when every task of a level fails', async () => {
    const { store, root } = await divergentMap();
    const skills = new ScriptedSkills({ a: new Error('down'), b: new Error('also down') });
    const { graph, model } = divergentGraph(store, { diverge: ['s0', plan(task('a'), task('b'))] }, { skills });
    const done = await graph.invoke({ nodeId: root.id }, config);
    expect(done.outcome).toBe('ALL_FAILED');
    expect(done.note).toBe('Every task of level 1 failed; the divergent session has ended.');
    expect(nodesOf(store, 'FINAL')).toEqual([]);
    const s0 = nodesOf(store, 'SUMMARY')[0]!;
    expect(store.messages.find((m) => m.nodeId === s0.id && m.kind === 'NOTICE')?.content).toBe(done.note);
    expect(model.calls).toEqual(['diverge', 'diverge']);
  });
});
