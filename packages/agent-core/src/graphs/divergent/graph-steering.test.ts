import { describe, expect, it } from 'vitest';
import { PortCheckpointSaver } from '../../checkpoint/port-checkpoint-saver.ts';
import { InMemoryCheckpointStore } from '../../testing/in-memory-checkpoint-store.ts';
import {
  divergentGraph,
  divergentMap,
  nodesOf,
  pendingQuestion,
  plan,
  reply,
  ScriptedSkills,
  scored,
  task,
} from './graph.test-helpers.ts';

const config = { configurable: { thread_id: 'session-2' } };

describe('divergent exploration: the person reviews each level', () => {
  it('should create no task before the person approves, and run the tasks as the person edited them', async () => {
    const { store, root } = await divergentMap();
    const { graph, skills, events } = divergentGraph(store, {
      diverge: ['s0', plan(task('market'), task('rent')), 's1', 'final'],
      evaluate: [scored(0.95)],
    });
    const question = pendingQuestion(await graph.invoke({ nodeId: root.id, reviewEachLevel: true }, config));
    expect(question.kind).toBe('review-divergent-tasks');
    expect(question.context).toMatchObject({ level: 1, tasks: [{ name: 'market' }, { name: 'rent' }] });
    expect(nodesOf(store, 'TASK')).toEqual([]);
    expect(events.questions[0]?.kind).toBe('review-divergent-tasks');

    // An expiry is no approval: the gate asks again and still nothing runs.
    const again = pendingQuestion(await graph.invoke(reply({ expired: true }), config));
    expect(again.kind).toBe('review-divergent-tasks');
    expect(nodesOf(store, 'TASK')).toEqual([]);

    const edited = [task('market'), { ...task('footfall', 4), query: 'count passers-by at noon' }];
    const done = await graph.invoke(reply({ action: 'approve', tasks: edited }), config);
    expect(done.outcome).toBe('FINISHED');
    expect(nodesOf(store, 'TASK').map((n) => [n.question, n.goal])).toEqual([
      ['market', 'find out market'],
      ['footfall', 'count passers-by at noon'],
    ]);
    expect((skills as ScriptedSkills).runs.sort()).toEqual(['footfall', 'market']);
  });

  it('should write the final output from what exists when the person stops at the review', async () => {
    const { store, root } = await divergentMap();
    const { graph } = divergentGraph(store, { diverge: ['s0', plan(task('market')), 'final from s0'] });
    await graph.invoke({ nodeId: root.id, reviewEachLevel: true }, config);
    const done = await graph.invoke(reply({ action: 'stop' }), config);
    expect(nodesOf(store, 'TASK')).toEqual([]);
    expect(nodesOf(store, 'FINAL')[0]?.conclusion).toBe(
      'final from s0\n\n## Sources\n\nNo task of this session finished; nothing was drawn on.',
    );
    expect(done.note).toBe('The person stopped the session; the final output is written from what was found.');
  });

  it('should take feedback, a new threshold and added tasks set between steps into account', async () => {
    const { store, root } = await divergentMap();
    const { graph, model } = divergentGraph(store, {
      diverge: ['s0', plan(task('market')), 's1', plan(task('rent')), 's2', 'final'],
      evaluate: [scored(0.6), scored(0.7)],
    });
    await graph.invoke({ nodeId: root.id, reviewEachLevel: true }, config);
    await graph.updateState(config, { extraTasks: [task('parking', 1)] });
    // Level 1 runs; level 2's plan waits for review with the person's task first, whatever its priority.
    const second = pendingQuestion(await graph.invoke(reply({ action: 'approve' }), config));
    expect(second.context.tasks).toMatchObject([{ name: 'parking', priority: 5 }, { name: 'rent' }]);
    await graph.updateState(config, { feedback: 'focus on the north side', threshold: 0.65 });
    const done = await graph.invoke(reply({ action: 'approve' }), config);
    expect(done.scores.map((s) => s.overall)).toEqual([0.6, 0.7]);
    expect(done.note).toContain('0.7 reached the threshold 0.65');
    const s2Prompt = model.requests.filter((r) => r.agent === 'diverge')[4]!.messages.at(-1)!.content;
    expect(s2Prompt).toContain('focus on the north side');
  });
});

describe('divergent exploration: durability', () => {
  it('should resume a level after a crash without running its finished tasks again', async () => {
    const { store, root } = await divergentMap();
    const rows = new InMemoryCheckpointStore();
    let rentAttempts = 0;
    const setNodeStatus = store.setNodeStatus.bind(store);
    const skills = new ScriptedSkills({
      rent: async () => {
        rentAttempts += 1;
        if (rentAttempts > 1) return { text: 'rent found', sources: [] };
        // The process dies while rent runs: its failure cannot be recorded, so the error ends the run.
        store.setNodeStatus = async (nodeId, status, reason) => {
          if (status === 'FAILED') throw new Error('the process died here');
          return setNodeStatus(nodeId, status, reason);
        };
        throw new Error('the search went down');
      },
    });
    const answers = { diverge: ['s0', plan(task('market'), task('rent')), 's1', 'final'], evaluate: [scored(0.95)] };
    const before = divergentGraph(store, answers, { skills, checkpointer: new PortCheckpointSaver(rows) });
    await expect(before.graph.invoke({ nodeId: root.id }, config)).rejects.toThrow('the process died here');
    store.setNodeStatus = setNodeStatus;
    expect(skills.runs.sort()).toEqual(['market', 'rent']);

    // A new process: a fresh graph over the same checkpoint rows resumes from the last checkpoint.
    const after = divergentGraph(
      store,
      { diverge: ['s1', 'final'], evaluate: [scored(0.95)] },
      {
        skills,
        checkpointer: new PortCheckpointSaver(rows),
      },
    );
    const done = await after.graph.invoke(null, config);
    expect(done.outcome).toBe('FINISHED');
    expect(skills.runs.sort()).toEqual(['market', 'rent', 'rent']);
    expect(nodesOf(store, 'TASK').map((n) => [n.question, n.status])).toEqual([
      ['market', 'COMPLETED'],
      ['rent', 'COMPLETED'],
    ]);
  });
});

describe('divergent exploration: languages', () => {
  it('should write titles, prompts and notes in Chinese for a Chinese map', async () => {
    const { store, root } = await divergentMap('zh');
    const { graph, model } = divergentGraph(store, {
      diverge: ['总结0', plan(task('市场规模')), '总结1', plan(task('租金')), '总结2', '最终文档'],
      evaluate: [scored(0.5), scored(0.6)],
    });
    const done = await graph.invoke({ nodeId: root.id, maxLevels: 2 }, config);
    expect(nodesOf(store, 'SUMMARY').map((n) => n.question)).toEqual(['第 0 层总结', '第 1 层总结', '第 2 层总结']);
    expect(nodesOf(store, 'FINAL')[0]?.question).toBe('最终输出');
    expect(done.note).toBe('已完成 2 层仍未达到阈值 0.9（最后得分 0.6），最终输出基于现有结果生成。');
    expect(model.requests[0]!.messages[0]!.content).toContain('用中文回答');
    const reasons = store.messages.find((m) => m.metadata?.completion);
    expect(reasons?.content).toContain('意图匹配度 (40%): 0.5');
  });

  it('should write them in English for an English map', async () => {
    const { store, root } = await divergentMap('en');
    const { graph, model } = divergentGraph(store, { diverge: ['s0', plan(), 'final'] });
    await graph.invoke({ nodeId: root.id }, config);
    expect(nodesOf(store, 'SUMMARY')[0]?.question).toBe('Summary, level 0');
    expect(model.requests[0]!.messages[0]!.content).not.toMatch(/[\u4e00-\u9fff]/);
  });
});
