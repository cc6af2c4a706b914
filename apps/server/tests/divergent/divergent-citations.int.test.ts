import { NODE, START_DIVERGENT } from '@thinkingmap/client';
import { logicProviders } from '@thinkingmap/db/testing';
import { describe, expect, it } from 'vitest';
import { call, startTestServer } from '../helpers/test-server.ts';
import { divergentModel, readSession, rootOf, task, waitForSessionStatus } from './divergent-helpers.ts';

const providers = logicProviders;
/** A whole session is dozens of commands; the machine running the tests may be shared and slow. */
const SESSION_MS = 150_000;

describe.each(providers)('a divergent document’s citations, on %s', { timeout: SESSION_MS }, (provider) => {
  it('should keep the keys of the tasks a generated document cites with its result', async () => {
    const report = { ...task('report'), skill: 'generateDoc' };
    const model = await divergentModel({
      plans: [[task('market'), task('rent')], [report]],
      scores: [0.5, 0.95],
      task: (name) =>
        name === 'report' ? { content: '# Report\nDemand is high [L1.T1]; rents are not [L1.T2].' } : undefined,
    });
    const server = await startTestServer(provider, { model: model.model });
    try {
      const { client } = server.connect(server.alice.token);
      const { rootId } = await rootOf(client, 'Where should the second café open?');
      const run = await call(client, START_DIVERGENT, { input: { nodeId: rootId } });
      await waitForSessionStatus(client, run.id, 'COMPLETED');
      const session = await readSession(client, run.id);
      const doc = session.levels[1]!.tasks[0]!;
      expect(doc).toMatchObject({ key: 'L2.T1', skill: 'generateDoc', status: 'DONE' });

      const node = await call(client, NODE, { id: doc.nodeId });
      expect(node.conclusion).toBe('# Report\nDemand is high [L1.T1]; rents are not [L1.T2].');
      const messages = node.conversations.flatMap((c) => c.messages);
      const result = messages.find((m) => m.role === 'ASSISTANT' && m.content === node.conclusion);
      expect(result?.metadata).toMatchObject({ divergentSkill: 'generateDoc', cites: ['L1.T1', 'L1.T2'] });
    } finally {
      await server.close();
      await model.server.close();
    }
  });
  it('should end the final output with sources from every finished task when it cites none, naming keys that are no task, in Chinese', async () => {
    const model = await divergentModel({
      plans: [[task('客流'), task('租金'), task('许可')], []],
      scores: [0.95],
      task: (name) => (name === '许可' ? { status: 400, message: 'refused' } : undefined),
      final: '# 结论\n开在车站附近 [L4.T1]。',
    });
    const server = await startTestServer(provider, { model: model.model });
    try {
      const { client } = server.connect(server.alice.token);
      const { rootId } = await rootOf(client, '第二家咖啡店开在哪里？', 'zh');
      const run = await call(client, START_DIVERGENT, { input: { nodeId: rootId } });
      await waitForSessionStatus(client, run.id, 'COMPLETED');
      const session = await readSession(client, run.id);
      expect(session.levels[0]!.tasks.map((t) => t.status)).toEqual(['DONE', 'DONE', 'FAILED']);
      // It drew on the finished tasks (the failed one had nothing to give), and says which.
      expect(session.drewOn).toEqual(['L1.T1', 'L1.T2']);
      const final = await call(client, NODE, { id: session.finalNodeId! });
      expect(final.conclusion).toBe(
        '# 结论\n开在车站附近 [L4.T1]。\n\n## 来源\n\n- [L1.T1] 客流\n- [L1.T2] 租金\n\n文中引用了这些编号，但没有对应的已完成任务：L4.T1',
      );
    } finally {
      await server.close();
      await model.server.close();
    }
  });
});
