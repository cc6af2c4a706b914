import { CANCEL_RUN, REPLY_TO_AGENT, START_DIVERGENT } from '@thinkingmap/client';
import { logicProviders } from '@thinkingmap/db/testing';
import { describe, expect, it } from 'vitest';
import { readEvents } from '../../src/commands/event-log.ts';
import { waitForQuestion } from '../helpers/agent-driver.ts';
import { call, startTestServer } from '../helpers/test-server.ts';
import {
  divergentModel,
  readSession,
  rootOf,
  task,
  waitForSession,
  waitForSessionStatus,
} from './divergent-helpers.ts';

const providers = logicProviders;
/** A whole session is dozens of commands; the machine running the tests may be shared and slow. */
const SESSION_MS = 150_000;

describe.each(providers)('divergent exploration through the API on %s', { timeout: SESSION_MS }, (provider) => {
  it('should run three levels for scores 0.5, 0.8 and 0.95 and write the final output as a node', async () => {
    const model = await divergentModel({
      plans: [[task('market'), task('rent')], [task('staff')], [task('menu'), task('permits')]],
      scores: [0.5, 0.8, 0.95],
    });
    const server = await startTestServer(provider, { model: model.model });
    try {
      const { client } = server.connect(server.alice.token);
      const { mapId, rootId } = await rootOf(client, 'Where should the second café open?');
      const started = await call(client, START_DIVERGENT, { input: { nodeId: rootId } });
      expect(started).toMatchObject({ __typename: 'AgentRun', agent: 'divergent', status: 'RUNNING' });
      await waitForSessionStatus(client, started.id, 'COMPLETED');

      const session = await readSession(client, started.id);
      expect(session).toMatchObject({ status: 'COMPLETED', outcome: 'FINISHED', level: 3, threshold: 0.9 });
      expect(session.scores.map((s) => [s.level, s.overall])).toEqual([
        [1, 0.5],
        [2, 0.8],
        [3, 0.95],
      ]);
      expect(session.scores[1]!.intentMatch).toEqual({ score: 0.8, reason: 'because: intent 0.8' });
      expect(session.levels.map((l) => l.tasks.map((t) => [t.key, t.name, t.status]))).toEqual([
        [
          ['L1.T1', 'market', 'DONE'],
          ['L1.T2', 'rent', 'DONE'],
        ],
        [['L2.T1', 'staff', 'DONE']],
        [
          ['L3.T1', 'menu', 'DONE'],
          ['L3.T2', 'permits', 'DONE'],
        ],
      ]);
      expect(session.runningTasks).toEqual([]);
      expect(session.note).toBe('The completion score 0.95 reached the threshold 0.9; the final output is written.');

      const nodes = await server.db.read.node.findMany({ where: { mapId }, orderBy: { createdAt: 'asc' } });
      const summaries = nodes.filter((n) => n.divergentRole === 'SUMMARY');
      expect(summaries.map((n) => [n.divergentLevel, n.conclusion, n.completionScore])).toEqual([
        [0, 'summary 0', null],
        [1, 'summary 1', 0.5],
        [2, 'summary 2', 0.8],
        [3, 'summary 3', 0.95],
      ]);
      const final = nodes.find((n) => n.id === session.finalNodeId);
      expect(final).toMatchObject({
        divergentRole: 'FINAL',
        status: 'COMPLETED',
        // The model's document, then the sources the code wrote from the task it cites.
        conclusion: '# Final document\nSee [L1.T1].\n\n## Sources\n\n- [L1.T1] market',
      });
      expect(session.drewOn).toEqual(['L1.T1']);
      const market = nodes.find((n) => n.question === 'market')!;
      expect(market).toMatchObject({ divergentRole: 'TASK', divergentLevel: 1, parentId: summaries[0]!.id });
      const converged = await server.db.read.dependency.findMany({ where: { nodeId: summaries[1]!.id } });
      expect(converged).toHaveLength(2);

      const log = await readEvents(server.db.read, mapId, 0, 5000);
      const types = log.map((e) => e.type);
      expect(types.filter((t) => t === 'DivergentLevelStarted')).toHaveLength(3);
      expect(types.filter((t) => t === 'DivergentTaskStarted')).toHaveLength(5);
      expect(types.filter((t) => t === 'DivergentTaskFinished')).toHaveLength(5);
      expect(types.filter((t) => t === 'CompletionScored')).toHaveLength(3);
      expect(types.filter((t) => t === 'DivergentFinished')).toHaveLength(1);
      expect(log.map((e) => e.seq)).toEqual(log.map((_, i) => i + 1));
    } finally {
      await server.close();
      await model.server.close();
    }
  });

  it('should wait for the person to review each level and run the tasks as edited, in Chinese', async () => {
    const model = await divergentModel({
      plans: [[task('市场规模'), task('租金')], []],
      scores: [0.95],
    });
    const server = await startTestServer(provider, { model: model.model });
    try {
      const { client } = server.connect(server.alice.token);
      const { mapId, rootId } = await rootOf(client, '第二家咖啡店开在哪里？', 'zh');
      const run = await call(client, START_DIVERGENT, {
        input: { nodeId: rootId, reviewEachLevel: true, maxParallel: 4, threshold: 0.9 },
      });
      await waitForSessionStatus(client, run.id, 'WAITING');
      const review = await waitForQuestion(client, mapId, { kind: 'review-divergent-tasks' });
      expect(review.question).toBe('第 1 层的任务列表：请批准（可编辑）或停止探索。');
      expect(review.context).toMatchObject({ level: 1, tasks: [{ name: '市场规模' }, { name: '租金' }] });
      await server.app.engine.idle();
      expect(await server.db.read.node.count({ where: { mapId, divergentRole: 'TASK' } })).toBe(0);

      const edited = [task('市场规模'), { ...task('客流'), query: '中午统计路过的人数' }];
      const replied = await call(client, REPLY_TO_AGENT, {
        input: { requestId: review.requestId, reply: { action: 'approve', tasks: edited } },
      });
      expect(replied.__typename).toBe('AgentRun');
      await waitForSessionStatus(client, run.id, 'COMPLETED');
      const session = await readSession(client, run.id);
      expect(session.levels[0]!.tasks.map((t) => [t.name, t.query, t.status])).toEqual([
        ['市场规模', 'find out 市场规模', 'DONE'],
        ['客流', '中午统计路过的人数', 'DONE'],
      ]);
      expect(session.note).toBe('完成度 0.95 达到阈值 0.9，已生成最终输出。');
      const titles = await server.db.read.node.findMany({ where: { mapId, divergentRole: { not: 'TASK' } } });
      expect(titles.map((n) => n.question).sort()).toEqual(['最终输出', '第 0 层总结', '第 1 层总结']);
    } finally {
      await server.close();
      await model.server.close();
    }
  });
});

describe('divergent exploration: stopping and bad input', { timeout: SESSION_MS }, () => {
  it('should cancel a session mid-level: running tasks stop, nothing more is written', async () => {
    const model = await divergentModel({
      plans: [[task('quick'), task('slow')]],
      scores: [],
      task: (name) => (name === 'slow' ? { content: 'too late', delayMs: 60_000 } : undefined),
    });
    const server = await startTestServer('sqlite', { model: model.model });
    try {
      const { client } = server.connect(server.alice.token);
      const { mapId, rootId } = await rootOf(client, 'Where should the second café open?');
      const run = await call(client, START_DIVERGENT, { input: { nodeId: rootId } });
      await waitForSession(
        client,
        run.id,
        (s) => s.levels[0]?.tasks.find((t) => t.name === 'quick')?.status === 'DONE' && s.runningTasks.length === 1,
        'the quick task to finish while the slow one runs',
      );
      const cancelled = await call(client, CANCEL_RUN, { runId: run.id });
      expect(cancelled.status).toBe('CANCELLED');
      await server.app.engine.idle();
      const session = await readSession(client, run.id);
      expect(session).toMatchObject({ status: 'CANCELLED', outcome: null, finalNodeId: null });
      expect(await server.db.read.node.count({ where: { mapId, divergentRole: 'SUMMARY' } })).toBe(1);
    } finally {
      await server.close();
      await model.server.close();
    }
  });

  it('should refuse bad options with a validation error and start nothing', async () => {
    const model = await divergentModel({ plans: [], scores: [] });
    const server = await startTestServer('sqlite', { model: model.model });
    try {
      const { client } = server.connect(server.alice.token);
      const { mapId, rootId } = await rootOf(client, 'Anything?');
      for (const input of [
        { nodeId: rootId, maxParallel: 9 },
        { nodeId: rootId, maxLevels: 6 },
        { nodeId: rootId, threshold: 1.5 },
      ]) {
        const result = await call(client, START_DIVERGENT, { input }).catch((e: Error) => e.message);
        expect(String(result)).toContain('VALIDATION');
      }
      const runs = await server.db.read.agentRun.count({ where: { mapId } });
      expect(runs).toBe(0);
    } finally {
      await server.close();
      await model.server.close();
    }
  });
});
