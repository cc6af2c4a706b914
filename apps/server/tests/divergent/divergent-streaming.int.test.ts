import { START_DIVERGENT } from '@thinkingmap/client';
import { describe, expect, it } from 'vitest';
import { eventually } from '../helpers/agent-driver.ts';
import { collectOverWebSocket } from '../helpers/event-collector.ts';
import { call, startTestServer } from '../helpers/test-server.ts';
import { divergentModel, rootOf, task, waitForSessionStatus } from './divergent-helpers.ts';

/** A whole session is dozens of commands; the machine running the tests may be shared and slow. */
const SESSION_MS = 150_000;

/** Each task's answer: long enough to stream in many pieces, and unlike the other's. */
const ANSWERS: Record<string, string> = {
  market: 'Foot traffic near the university peaks at noon; three streets carry most of it.',
  rent: '租金：大学城临街铺面每平米每月约一百二十元，押二付三，比市中心低三成。',
};

describe('divergent tasks stream live, each into its own node', { timeout: SESSION_MS }, () => {
  it('should send two parallel tasks’ streamed text apart, each equal to its task’s final text', async () => {
    // Both tasks write slowly and side by side: each sends its first piece, waits until the other task's
    // request has arrived too, then writes the rest a piece at a time.
    let arrived = 0;
    let bothArrived!: () => void;
    const both = new Promise<void>((resolve) => {
      bothArrived = resolve;
    });
    const model = await divergentModel({
      plans: [[task('market'), task('rent')], []],
      scores: [0.95],
      timeoutMs: 20_000,
      task: (name) => {
        const content = ANSWERS[name];
        if (!content) return undefined;
        if (++arrived === 2) bothArrived();
        return { content, chunkSize: 3, chunkDelayMs: 15, pauseAfterChars: 3, resume: both };
      },
    });
    const server = await startTestServer('sqlite', { model: model.model });
    try {
      const { client } = server.connect(server.alice.token);
      const { mapId, rootId } = await rootOf(client, 'Where should the second café open?');
      const events = collectOverWebSocket(client, mapId);
      const run = await call(client, START_DIVERGENT, { input: { nodeId: rootId } });
      await waitForSessionStatus(client, run.id, 'COMPLETED');
      await eventually(
        async () => events.events.some((e) => e.__typename === 'DivergentFinished'),
        'the session’s last event to arrive',
        30_000,
      );
      expect(events.errors).toEqual([]);

      const tasks = await server.db.read.node.findMany({ where: { mapId, divergentRole: 'TASK' } });
      expect(tasks.map((t) => t.question).sort()).toEqual(['market', 'rent']);
      const received = events.events;
      const finishedAt = received.findIndex((e) => e.__typename === 'DivergentTaskFinished');
      for (const node of tasks) {
        const pieces = received.flatMap((e, at) =>
          e.__typename === 'AgentTokens' && e.nodeId === node.id ? [{ at, text: e.text }] : [],
        );
        // Its own text, whole and nothing else — as the node's conclusion has it.
        expect(pieces.map((p) => p.text).join('')).toBe(ANSWERS[node.question]);
        expect(node.conclusion).toBe(ANSWERS[node.question]);
        // Live: several pieces, the first before either task finished (both were writing at the same time).
        expect(pieces.length).toBeGreaterThan(1);
        expect(pieces[0]!.at).toBeLessThan(finishedAt);
      }
      // No piece streamed for another node carries a task's words.
      const taskIds = new Set(tasks.map((t) => t.id));
      const elsewhere = received.flatMap((e) =>
        e.__typename === 'AgentTokens' && !taskIds.has(e.nodeId ?? '') ? [e.text] : [],
      );
      expect(elsewhere.join('')).not.toMatch(/Foot traffic|租金/);
      events.stop();
    } finally {
      await server.close();
      await model.server.close();
    }
  });
});
