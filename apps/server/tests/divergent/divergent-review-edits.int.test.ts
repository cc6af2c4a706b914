import { REPLY_TO_AGENT, START_DIVERGENT } from '@thinkingmap/client';
import { attempt } from '@thinkingmap/client/testing';
import { logicProviders } from '@thinkingmap/db/testing';
import { describe, expect, it } from 'vitest';
import { waitForQuestion } from '../helpers/agent-driver.ts';
import { snapshot } from '../helpers/db-snapshot.ts';
import { call, startTestServer } from '../helpers/test-server.ts';
import { divergentModel, readSession, rootOf, task, waitForSessionStatus } from './divergent-helpers.ts';

const providers = logicProviders;
/** A whole session is dozens of commands; the machine running the tests may be shared and slow. */
const SESSION_MS = 150_000;

describe.each(providers)(
  'editing a divergent level’s task list at its review, on %s',
  { timeout: SESSION_MS },
  (provider) => {
    it('should run the edited tasks of highest priority up to maxParallel, in the person’s order, and list the others as dropped', async () => {
      const model = await divergentModel({ plans: [[task('market')], []], scores: [0.95] });
      const server = await startTestServer(provider, { model: model.model });
      try {
        const { client } = server.connect(server.alice.token);
        const { mapId, rootId } = await rootOf(client, 'Where should the second café open?');
        const run = await call(client, START_DIVERGENT, {
          input: { nodeId: rootId, reviewEachLevel: true, maxParallel: 2 },
        });
        const review = await waitForQuestion(client, mapId, { kind: 'review-divergent-tasks' });
        const edited = [task('market', 3), task('parking', 1), task('footfall', 5)];
        await call(client, REPLY_TO_AGENT, {
          input: { requestId: review.requestId, reply: { action: 'approve', tasks: edited } },
        });
        await waitForSessionStatus(client, run.id, 'COMPLETED');

        const session = await readSession(client, run.id);
        expect(session.levels[0]!.tasks.map((t) => [t.key, t.name, t.status])).toEqual([
          ['L1.T1', 'market', 'DONE'],
          ['L1.T2', 'footfall', 'DONE'],
        ]);
        expect(session.droppedTasks.map((d) => [d.level, d.name, d.reason])).toEqual([
          [1, 'parking', 'over the limit of 2 parallel tasks per level'],
        ]);
        expect(model.taskCalls.has('parking')).toBe(false);
      } finally {
        await server.close();
        await model.server.close();
      }
    });

    it('should refuse an edited task whose skill the server does not offer, naming the task and the skill, and keep waiting', async () => {
      const model = await divergentModel({ plans: [[task('market')], []], scores: [0.95] });
      // No web search provider is configured on this server.
      const server = await startTestServer(provider, { model: model.model });
      try {
        const { client } = server.connect(server.alice.token);
        const { mapId, rootId } = await rootOf(client, 'Where should the second café open?');
        const run = await call(client, START_DIVERGENT, { input: { nodeId: rootId, reviewEachLevel: true } });
        const review = await waitForQuestion(client, mapId, { kind: 'review-divergent-tasks' });
        await waitForSessionStatus(client, run.id, 'WAITING');
        await server.app.engine.idle();
        const before = await snapshot(server.db);

        const withSkill = (skill: string) => ({
          input: {
            requestId: review.requestId,
            reply: { action: 'approve', tasks: [task('market'), { ...task('news'), skill }] },
          },
        });
        const unavailable = await attempt(client, REPLY_TO_AGENT, withSkill('webSearch'));
        expect(unavailable).toMatchObject({ __typename: 'ValidationError', field: 'reply.tasks.1.skill' });
        expect((unavailable as { reason: string }).reason).toBe(
          'the task "news" cannot use the skill webSearch: it is not available on this server (no web search provider is configured by the operator)',
        );
        const unknown = await attempt(client, REPLY_TO_AGENT, withSkill('crystalBall'));
        expect(unknown).toMatchObject({ __typename: 'ValidationError', field: 'reply.tasks.1.skill' });
        expect((unknown as { reason: string }).reason).toMatch(
          /^the task "news" cannot use the skill crystalBall: it is not a skill \(the skills are librarySearch, webSearch, /,
        );

        // The gate did not pass: nothing changed, the same question waits, no task exists.
        expect(await snapshot(server.db)).toBe(before);
        expect(await waitForQuestion(client, mapId, { kind: 'review-divergent-tasks' })).toMatchObject({
          requestId: review.requestId,
          status: 'PENDING',
        });
        expect((await readSession(client, run.id)).status).toBe('WAITING');
        expect(await server.db.read.node.count({ where: { mapId, divergentRole: 'TASK' } })).toBe(0);

        await call(client, REPLY_TO_AGENT, withSkill('commonQnA'));
        await waitForSessionStatus(client, run.id, 'COMPLETED');
        const session = await readSession(client, run.id);
        expect(session.levels[0]!.tasks.map((t) => [t.name, t.skill, t.status])).toEqual([
          ['market', 'commonQnA', 'DONE'],
          ['news', 'commonQnA', 'DONE'],
        ]);
      } finally {
        await server.close();
        await model.server.close();
      }
    });
  },
);
