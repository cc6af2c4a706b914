import { REPLY_TO_AGENT, START_DIVERGENT, UPDATE_MAP } from '@thinkingmap/client';
import { logicProviders } from '@thinkingmap/db/testing';
import type { Client } from '@urql/core';
import { describe, expect, it } from 'vitest';
import { waitForQuestion } from '../helpers/agent-driver.ts';
import { call, startTestServer } from '../helpers/test-server.ts';
import { divergentModel, readSession, rootOf, task, waitForSessionStatus } from './divergent-helpers.ts';

const providers = logicProviders;
/** A whole session is dozens of commands; the machine running the tests may be shared and slow. */
const SESSION_MS = 150_000;

/** A budget no session of these tests comes near, so the map meters every call from the start. */
const AMPLE = 10_000_000;

/**
 * A task whose query alone takes more tokens than the room the tests leave (about 2,000 tokens), where the
 * final output's prompt (intent, summary, a short result) fits in it.
 */
const bulky = (name: string) => ({
  ...task(name),
  query: Array.from({ length: 1900 }, (_, i) => String.fromCodePoint(0x4e00 + ((i * 37) % 20_000))).join(''),
});

/**
 * Waits for the review of `level`, leaves `room` tokens of the map's budget (what was spent so far plus
 * `room`), then approves the list as planned: its tasks run with that little left.
 */
async function approveWithRoom(client: Client, mapId: string, level: number, room: number | null) {
  const review = await waitForQuestion(client, mapId, { kind: 'review-divergent-tasks' });
  expect(review.context).toMatchObject({ level });
  if (room !== null) {
    const { tokensUsed } = await call(client, UPDATE_MAP, { input: { id: mapId } });
    await call(client, UPDATE_MAP, { input: { id: mapId, tokenBudget: tokensUsed + room } });
  }
  await call(client, REPLY_TO_AGENT, { input: { requestId: review.requestId, accept: true } });
}

describe.each(providers)(
  'a divergent session when the map’s token budget runs out, on %s',
  { timeout: SESSION_MS },
  (provider) => {
    it('should stop, keep what the finished level found and write the final output from it with a note, in Chinese', async () => {
      const model = await divergentModel({ plans: [[task('市场')], [bulky('租金')]], scores: [0.5] });
      const server = await startTestServer(provider, { model: model.model });
      try {
        const { client } = server.connect(server.alice.token);
        const { mapId, rootId } = await rootOf(client, '第二家咖啡店开在哪里？', 'zh');
        await call(client, UPDATE_MAP, { input: { id: mapId, tokenBudget: AMPLE } });
        const run = await call(client, START_DIVERGENT, { input: { nodeId: rootId, reviewEachLevel: true } });
        await approveWithRoom(client, mapId, 1, null);
        await approveWithRoom(client, mapId, 2, 1_500);
        await waitForSessionStatus(client, run.id, 'COMPLETED');

        const session = await readSession(client, run.id);
        expect(session).toMatchObject({ outcome: 'FINISHED', scores: [{ level: 1, overall: 0.5 }] });
        expect(session.note).toBe('导图的 token 预算用完了，发散探索已停止，最终输出基于已完成的结果生成。');
        expect(session.levels.map((l) => l.tasks.map((t) => [t.name, t.status]))).toEqual([
          [['市场', 'DONE']],
          [['租金', 'FAILED']],
        ]);
        // The refused task says why, in the map's language: no call was made for it.
        expect(session.levels[1]!.tasks[0]!.reason).toContain('导图的 token 预算不够了');
        expect(model.taskCalls.has('租金')).toBe(false);

        const nodes = await server.db.read.node.findMany({ where: { mapId } });
        const final = nodes.find((n) => n.id === session.finalNodeId);
        expect(final).toMatchObject({ divergentRole: 'FINAL', status: 'COMPLETED' });
        expect(final!.conclusion).toBe('# Final document\nSee [L1.T1].\n\n## 来源\n\n- [L1.T1] 市场');
        // Written from the finished level: its summary and result; no summary of the level the budget cut.
        const finalPrompt = model.prompts().find((p) => p.includes('result of 市场') && p.includes('最终输出'));
        expect(finalPrompt).toBeDefined();
        expect(nodes.filter((n) => n.divergentRole === 'SUMMARY').map((n) => n.divergentLevel)).toEqual([0, 1]);
        expect(nodes.find((n) => n.question === '租金')).toMatchObject({ status: 'FAILED', divergentRole: 'TASK' });
        const notice = await server.db.read.message.findFirst({ where: { kind: 'NOTICE', content: session.note! } });
        expect(notice).not.toBeNull();
        const map = await call(client, UPDATE_MAP, { input: { id: mapId } });
        expect(map.tokensUsed).toBeLessThanOrEqual(map.tokenBudget!);
      } finally {
        await server.close();
        await model.server.close();
      }
    });

    it('should end with a notice and keep every finished node when the budget refuses the final output too', async () => {
      const model = await divergentModel({ plans: [[task('market')], [task('rent')]], scores: [0.5] });
      const server = await startTestServer(provider, { model: model.model });
      try {
        const { client } = server.connect(server.alice.token);
        const { mapId, rootId } = await rootOf(client, 'Where should the second café open?');
        await call(client, UPDATE_MAP, { input: { id: mapId, tokenBudget: AMPLE } });
        const run = await call(client, START_DIVERGENT, { input: { nodeId: rootId, reviewEachLevel: true } });
        await approveWithRoom(client, mapId, 1, null);
        await approveWithRoom(client, mapId, 2, 0);
        await waitForSessionStatus(client, run.id, 'COMPLETED');

        const session = await readSession(client, run.id);
        expect(session).toMatchObject({ outcome: 'BUDGET_EXHAUSTED', finalNodeId: null });
        expect(session.note).toBe(
          "The map's token budget ran out before the final output could be written; the divergent session has ended and every finished result stays on the map.",
        );
        expect(session.levels[1]!.tasks[0]).toMatchObject({ name: 'rent', status: 'FAILED' });
        expect(session.levels[1]!.tasks[0]!.reason).toContain("The map's token budget is used up");

        const nodes = await server.db.read.node.findMany({ where: { mapId } });
        expect(nodes.find((n) => n.question === 'market')).toMatchObject({
          status: 'COMPLETED',
          conclusion: 'result of market',
        });
        expect(nodes.filter((n) => n.divergentRole === 'SUMMARY').map((n) => [n.divergentLevel, n.conclusion])).toEqual(
          [
            [0, 'summary 0'],
            [1, 'summary 1'],
          ],
        );
        // The final output's node says it could not be written, and why.
        const final = nodes.find((n) => n.divergentRole === 'FINAL')!;
        expect(final).toMatchObject({ status: 'FAILED', conclusion: null });
        const notice = await server.db.read.message.findMany({ where: { kind: 'NOTICE', content: session.note! } });
        expect(notice).toHaveLength(1);
        expect(model.prompts().some((p) => p.includes('final output of a divergent'))).toBe(false);
      } finally {
        await server.close();
        await model.server.close();
      }
    });

    it('should end with a notice and no final output when the budget runs out before anything was found', async () => {
      const model = await divergentModel({ plans: [[task('market'), task('rent')]], scores: [] });
      const server = await startTestServer(provider, { model: model.model });
      try {
        const { client } = server.connect(server.alice.token);
        const { mapId, rootId } = await rootOf(client, 'Where should the second café open?');
        await call(client, UPDATE_MAP, { input: { id: mapId, tokenBudget: AMPLE } });
        const run = await call(client, START_DIVERGENT, { input: { nodeId: rootId, reviewEachLevel: true } });
        await approveWithRoom(client, mapId, 1, 0);
        await waitForSessionStatus(client, run.id, 'COMPLETED');

        const session = await readSession(client, run.id);
        expect(session).toMatchObject({ outcome: 'BUDGET_EXHAUSTED', finalNodeId: null, scores: [] });
        expect(session.note).toBe(
          "The map's token budget ran out before anything was found; the divergent session has ended. Raise the budget to start again.",
        );
        expect(session.levels[0]!.tasks.map((t) => t.status)).toEqual(['FAILED', 'FAILED']);
        expect(await server.db.read.node.count({ where: { mapId, divergentRole: 'FINAL' } })).toBe(0);
        const summary0 = await server.db.read.node.findFirstOrThrow({ where: { mapId, divergentRole: 'SUMMARY' } });
        const notice = await server.db.read.message.findMany({
          where: { kind: 'NOTICE', content: session.note! },
          select: { conversation: { select: { nodeId: true } } },
        });
        expect(notice.map((m) => m.conversation.nodeId)).toEqual([summary0.id]);
      } finally {
        await server.close();
        await model.server.close();
      }
    });
  },
);
