import {
  ADD_DEPENDENCY,
  CREATE_MAP,
  CREATE_NODE,
  DELETE_NODE,
  EVENTS,
  MAP,
  MOVE_NODE,
  NODE,
  REPLY_TO_AGENT,
  RUNS,
  SET_CONCLUSION,
  UPDATE_MAP,
} from '@thinkingmap/client';
import { logicProviders } from '@thinkingmap/db/testing';
import type { Client } from '@urql/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, waitForQuestion } from './helpers/agent-driver.ts';
import { startScriptedModel } from './helpers/scripted-model-server.ts';
import { call, startTestServer, type TestServer } from './helpers/test-server.ts';

const providers = logicProviders;

/**
 * A café map: root → market, site (site depends on market) → street under site; every node concluded by
 * hand (no run started by itself), then `autoRun` as given.
 */
async function concludedCafe(client: Client, autoRun: boolean) {
  const map = await call(client, CREATE_MAP, { input: { title: 'Second café' } });
  await call(client, UPDATE_MAP, { input: { id: map.id, autoRun: false } });
  const node = (question: string, parentId?: string) =>
    call(client, CREATE_NODE, { input: { mapId: map.id, question, parentId } });
  const root = await node('Open a second café?');
  const market = await node('How big is the market?', root.id);
  const site = await node('Which site?', root.id);
  const street = await node('Which street?', site.id);
  await call(client, ADD_DEPENDENCY, { nodeId: site.id, dependsOnId: market.id });
  for (const [n, text] of [
    [market, 'Big enough.'],
    [street, 'Main street.'],
    [site, 'Near campus.'],
    [root, 'Yes, near campus.'],
  ] as const)
    await call(client, SET_CONCLUSION, { input: { nodeId: n.id, conclusion: text } });
  await call(client, UPDATE_MAP, { input: { id: map.id, autoRun } });
  const { lastSeq } = await call(client, MAP, { id: map.id });
  return { mapId: map.id, root: root.id, market: market.id, site: site.id, street: street.id, lastSeq };
}

/** Every node's stale mark, by id. */
async function staleness(client: Client, mapId: string) {
  const map = await call(client, MAP, { id: mapId });
  return Object.fromEntries(map.nodes.map((n) => [n.id, n.staleReason]));
}

/** The NodeStale events stored after `after`, as [node id, reason, source question]. */
async function staleEvents(client: Client, mapId: string, after: number) {
  const page = await call(client, EVENTS, { mapId, after, first: 200 });
  return page.events.flatMap((e) =>
    e.__typename === 'NodeStale' ? [[e.node.id, e.node.staleReason, e.node.staleSourceQuestion]] : [],
  );
}

describe.each(providers)('stale conclusions on %s', (provider) => {
  let server: TestServer;
  let client: Client;
  let model: Awaited<ReturnType<typeof startScriptedModel>>;

  beforeAll(async () => {
    let drafts = 0;
    model = await startScriptedModel({
      intent_decision: () => ({ intent: 'CONCLUDE', reason: 'redraft', confidence: 0.9 }),
      conclusion_draft: () => {
        drafts += 1;
        return { kind: 'ANALYTICAL', conclusion: `Redrafted ${drafts}.`, keyPoints: ['k'], confidence: 0.7 };
      },
    });
    server = await startTestServer(provider, { model: model.model });
    client = server.connect(server.alice.token).client;
  });
  afterAll(async () => {
    await server?.close();
    await model?.server.close();
  });

  it('should mark a concluded parent stale when it gains a child, with an event, counting it as open', async () => {
    const cafe = await concludedCafe(client, false);
    expect((await call(client, MAP, { id: cafe.mapId })).status).toBe('COMPLETED');
    const rent = await call(client, CREATE_NODE, {
      input: { mapId: cafe.mapId, parentId: cafe.root, question: 'What about rent?' },
    });

    const root = await call(client, NODE, { id: cafe.root });
    expect(root).toMatchObject({
      status: 'COMPLETED',
      conclusion: 'Yes, near campus.',
      staleReason: 'CHILD_ADDED',
      staleSourceId: rent.id,
      staleSourceQuestion: 'What about rent?',
    });
    expect(root.staleSince).toBeTruthy();
    expect(await staleEvents(client, cafe.mapId, cafe.lastSeq)).toEqual([
      [cafe.root, 'CHILD_ADDED', 'What about rent?'],
    ]);
    const map = await call(client, MAP, { id: cafe.mapId });
    // The root's conclusion no longer stands: the map is open again, and progress counts the root as open.
    expect(map.status).toBe('ACTIVE');
    expect(map.progress).toEqual({ total: 5, concluded: 3, open: 2, stale: 1 });

    // Concluding it again makes it current.
    const again = await call(client, SET_CONCLUSION, {
      input: { nodeId: cafe.root, conclusion: 'Yes, rent allowing.' },
    });
    expect(again).toMatchObject({
      staleReason: null,
      staleSourceId: null,
      staleSourceQuestion: null,
      staleSince: null,
    });
    expect((await call(client, MAP, { id: cafe.mapId })).progress).toMatchObject({ stale: 0, open: 1 });
  });

  it("should mark the parent stale when a child's conclusion changes, and the ancestors above it", async () => {
    const cafe = await concludedCafe(client, false);
    // The same words again change nothing.
    await call(client, SET_CONCLUSION, { input: { nodeId: cafe.street, conclusion: 'Main street.' } });
    expect(Object.values(await staleness(client, cafe.mapId)).filter(Boolean)).toEqual([]);

    await call(client, SET_CONCLUSION, { input: { nodeId: cafe.street, conclusion: 'Station street.' } });
    expect(await staleness(client, cafe.mapId)).toEqual({
      [cafe.root]: 'CHILD_STALE',
      [cafe.market]: null,
      [cafe.site]: 'CHILD_CHANGED',
      [cafe.street]: null,
    });
    expect(await staleEvents(client, cafe.mapId, cafe.lastSeq)).toEqual([
      [cafe.site, 'CHILD_CHANGED', 'Which street?'],
      [cafe.root, 'CHILD_STALE', 'Which site?'],
    ]);
  });

  it("should mark a dependent stale when a dependency's conclusion changes", async () => {
    const cafe = await concludedCafe(client, false);
    await call(client, SET_CONCLUSION, { input: { nodeId: cafe.market, conclusion: 'Smaller than we hoped.' } });
    const marks = await staleness(client, cafe.mapId);
    expect(marks[cafe.site]).toBe('DEPENDENCY_CHANGED');
    expect(marks[cafe.root]).toBe('CHILD_CHANGED');
    expect(marks[cafe.street]).toBeNull();
    expect(await staleEvents(client, cafe.mapId, cafe.lastSeq)).toEqual(
      expect.arrayContaining([[cafe.site, 'DEPENDENCY_CHANGED', 'How big is the market?']]),
    );
  });

  it('should mark a parent stale when a child is deleted or moved away, and the new parent when one arrives', async () => {
    const cafe = await concludedCafe(client, false);
    await call(client, MOVE_NODE, { input: { id: cafe.street, parentId: cafe.market } });
    let marks = await staleness(client, cafe.mapId);
    expect([marks[cafe.site], marks[cafe.market]]).toEqual(['CHILD_REMOVED', 'CHILD_ADDED']);
    await call(client, SET_CONCLUSION, { input: { nodeId: cafe.market, conclusion: 'Big enough.' } });
    await call(client, SET_CONCLUSION, { input: { nodeId: cafe.site, conclusion: 'Near campus.' } });
    await call(client, DELETE_NODE, { id: cafe.street });
    marks = await staleness(client, cafe.mapId);
    expect(marks[cafe.market]).toBe('CHILD_REMOVED');
    expect((await call(client, NODE, { id: cafe.market })).staleSourceQuestion).toBe('Which street?');
  });

  it('should start no run by itself when the map does not run agents by itself', async () => {
    const cafe = await concludedCafe(client, false);
    await call(client, SET_CONCLUSION, { input: { nodeId: cafe.street, conclusion: 'Station street.' } });
    await server.app.engine.idle();
    expect((await call(client, RUNS, { mapId: cafe.mapId })).data).toEqual([]);
  });

  it('should redraft stale conclusions from the bottom up with autoRun, each waiting for the person', async () => {
    const cafe = await concludedCafe(client, true);
    expect((await call(client, RUNS, { mapId: cafe.mapId })).data).toEqual([]);

    // The market's conclusion changes: the site (its dependent) and the root go stale. The site is redrafted
    // first; the root waits until what it concludes from is current again.
    await call(client, SET_CONCLUSION, { input: { nodeId: cafe.market, conclusion: 'Smaller than we hoped.' } });
    const siteReview = await waitForQuestion(client, cafe.mapId, { kind: 'review-conclusion', nodeId: cafe.site });
    await server.app.engine.idle();
    const runs = (await call(client, RUNS, { mapId: cafe.mapId })).data;
    expect(runs.map((r) => r.nodeId)).toEqual([cafe.site]);
    // Nothing is accepted without the person: the old conclusion stands, marked stale.
    expect(await call(client, NODE, { id: cafe.site })).toMatchObject({
      conclusion: 'Near campus.',
      staleReason: 'DEPENDENCY_CHANGED',
    });

    await call(client, REPLY_TO_AGENT, { input: { requestId: siteReview.requestId, accept: true } });
    const rootReview = await waitForQuestion(client, cafe.mapId, { kind: 'review-conclusion', nodeId: cafe.root });
    const site = await call(client, NODE, { id: cafe.site });
    expect(site).toMatchObject({ status: 'COMPLETED', staleReason: null });
    expect(site.conclusion).toMatch(/^Redrafted \d+\.$/);
    expect((await call(client, NODE, { id: cafe.root })).staleReason).toBe('CHILD_CHANGED');

    await call(client, REPLY_TO_AGENT, { input: { requestId: rootReview.requestId, accept: true } });
    await eventually(async () => {
      const root = await call(client, NODE, { id: cafe.root });
      return root.status === 'COMPLETED' && root.staleReason === null ? root : null;
    }, 'the root concluded again');
    const map = await call(client, MAP, { id: cafe.mapId });
    expect(map.progress).toEqual({ total: 4, concluded: 4, open: 0, stale: 0 });
    expect(map.status).toBe('COMPLETED');
  });
});
