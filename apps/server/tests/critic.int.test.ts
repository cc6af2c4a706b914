import { criticChange, criticFinding } from '@thinkingmap/agent-core/testing';
import {
  ACCEPT_SUGGESTION,
  CRITIC_SUGGESTIONS,
  DISMISS_SUGGESTION,
  EVENTS,
  MAP_HISTORY,
  NODE,
  REDO_LAST_UNDO,
  RUN_PATH,
  SET_CONCLUSION,
  START_CRITIC,
  UNDO_LAST_CHANGE,
  UPDATE_MAP,
  UPDATE_NODE,
} from '@thinkingmap/client';
import { logicProviders } from '@thinkingmap/db/testing';
import type { Client } from '@urql/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForRun } from './helpers/agent-driver.ts';
import { createMap, createNode } from './helpers/map-builder.ts';
import { startScriptedModel } from './helpers/scripted-model-server.ts';
import { attempt, call, startTestServer, type TestServer } from './helpers/test-server.ts';

const providers = logicProviders;

/** The critic's findings, by the language of its prompt; nodes are named by the keys the prompt gave them. */
function review(prompt: string) {
  if (prompt.includes('审阅者'))
    return {
      summary: '有一处重叠。',
      findings: [
        criticFinding(
          'OVERLAP',
          ['n1', 'n2'],
          '两个子问题都在问成本。',
          criticChange('EDIT_QUESTION', 'n2', { question: '设备要花多少钱？' }),
        ),
        criticFinding('UNSUPPORTED', ['n2'], '房租的数字没有依据。', criticChange('REDO_CONCLUSION', 'n2')),
      ],
    };
  return {
    summary: 'Demand is missing, and the rent conclusion is unsupported.',
    findings: [
      criticFinding(
        'GAP',
        ['n1'],
        'Nobody asks whether anyone will buy.',
        criticChange('ADD_SUB_QUESTION', 'n1', { question: 'Is there demand?', goal: 'size the market' }),
      ),
      criticFinding(
        'OVERLAP',
        ['n2', 'n3'],
        'Rent and lease cost ask the same.',
        criticChange('EDIT_QUESTION', 'n3', { question: 'Equipment cost?' }),
      ),
      criticFinding(
        'UNSUPPORTED',
        ['n2'],
        'The rent figure comes from nowhere.',
        criticChange('REDO_CONCLUSION', 'n2'),
      ),
      criticFinding(
        'GAP',
        ['n3', 'n2'],
        'Lease cost needs the rent first.',
        criticChange('ADD_DEPENDENCY', 'n3', { dependsOn: 'n2' }),
      ),
      { kind: 'GAP', nodes: ['n7'], explanation: 'No such node.', change: criticChange('ADD_SUB_QUESTION', 'n7') },
    ],
  };
}

describe.each(providers)('critic on request on %s', (provider) => {
  let server: TestServer;
  let client: Client;
  const prompts: string[] = [];

  beforeAll(async () => {
    const model = await startScriptedModel({
      critic_review: (prompt) => {
        prompts.push(prompt);
        return review(prompt);
      },
    });
    server = await startTestServer(provider, { model: model.model });
    client = server.connect(server.alice.token).client;
  });
  afterAll(() => server.close());

  async function reviewed(mapId: string, nodeId?: string) {
    const run = await call(client, START_CRITIC, { input: { mapId, nodeId } });
    expect(run.agent).toBe('critic');
    await waitForRun(client, mapId, run.id, ['COMPLETED']);
    const { data } = await call(client, CRITIC_SUGGESTIONS, { mapId, status: 'OPEN' });
    return { run, suggestions: data.filter((s) => s.runId === run.id) };
  }

  const reviewedOpen = async (mapId: string) =>
    (await call(client, CRITIC_SUGGESTIONS, { mapId, status: 'OPEN' })).data;

  it('should post findings as suggestions, apply an accepted one through the commands, and dismiss', async () => {
    const mapId = await createMap(client, 'Open a bakery?');
    await call(client, UPDATE_MAP, { input: { id: mapId, autoRun: false } });
    const root = await createNode(client, mapId, 'Open a bakery?');
    const rent = await createNode(client, mapId, 'Rent?', root.id);
    const lease = await createNode(client, mapId, 'Lease cost?', root.id);
    await call(client, SET_CONCLUSION, { input: { nodeId: rent.id, conclusion: 'Rent is 2000 a month.' } });

    const { run, suggestions } = await reviewed(mapId);
    expect(prompts.at(-1)).toContain('[n2] Rent?');
    // The finding naming no node of the map is dropped; the others name nodes by id, with their change.
    const byCommand = Object.fromEntries(suggestions.map((s) => [s.change.command, s]));
    expect(Object.keys(byCommand).sort()).toEqual([
      'ADD_DEPENDENCY',
      'ADD_SUB_QUESTION',
      'EDIT_QUESTION',
      'REDO_CONCLUSION',
    ]);
    expect(byCommand.ADD_SUB_QUESTION).toMatchObject({
      kind: 'GAP',
      status: 'OPEN',
      nodeIds: [root.id],
      change: { parentId: root.id, question: 'Is there demand?', goal: 'size the market' },
    });
    expect(byCommand.EDIT_QUESTION?.nodeIds).toEqual([rent.id, lease.id]);
    expect(byCommand.ADD_DEPENDENCY?.change).toMatchObject({ nodeId: lease.id, dependsOnId: rent.id });

    // The run is viewable like any other, and its suggestions are on the map's event log.
    const path = await call(client, RUN_PATH, { runId: run.id });
    expect(path.steps.map((s) => s.step)).toEqual(['readScope', 'reviewScope', 'postSuggestions']);
    const { events } = await call(client, EVENTS, { mapId, first: 1000 });
    expect(events.filter((e) => e.__typename === 'SuggestionPosted')).toHaveLength(4);

    // Accept: the sub-question is created by createNode, in the history as one change with the acceptance.
    const accepted = await call(client, ACCEPT_SUGGESTION, { suggestionId: byCommand.ADD_SUB_QUESTION!.id });
    expect(accepted).toMatchObject({ status: 'ACCEPTED', resolvedAt: expect.any(String) });
    const withDemand = await call(client, NODE, { id: root.id });
    expect(withDemand.children.map((c) => c.question)).toContain('Is there demand?');
    const history = await call(client, MAP_HISTORY, { mapId });
    expect(history.changes[0]?.entries.map((e) => `${e.action} ${e.label}`)).toContain('CREATED Is there demand?');
    // … and undone like any change of the person's.
    await call(client, UNDO_LAST_CHANGE, { mapId });
    expect((await call(client, NODE, { id: root.id })).children.map((c) => c.question)).not.toContain(
      'Is there demand?',
    );
    // The suggestion shows as undone (not accepted, not open again); a redo makes it accepted, an undo undone.
    const statusOf = async (status: 'UNDONE' | 'ACCEPTED') =>
      (await call(client, CRITIC_SUGGESTIONS, { mapId, status })).data.map((s) => s.id);
    const demandId = byCommand.ADD_SUB_QUESTION!.id;
    expect(await statusOf('UNDONE')).toEqual([demandId]);
    expect((await reviewedOpen(mapId)).map((s) => s.id)).not.toContain(demandId);
    await call(client, REDO_LAST_UNDO, { mapId });
    expect(await statusOf('ACCEPTED')).toEqual([demandId]);
    await call(client, UNDO_LAST_CHANGE, { mapId });
    expect(await statusOf('UNDONE')).toEqual([demandId]);
    const resolved = (await call(client, EVENTS, { mapId, first: 1000 })).events.filter(
      (e) => e.__typename === 'SuggestionResolved',
    );
    expect(resolved.length).toBe(4);

    // Accepting twice is a conflict.
    expect(await attempt(client, ACCEPT_SUGGESTION, { suggestionId: byCommand.ADD_SUB_QUESTION!.id })).toMatchObject({
      __typename: 'ConflictError',
    });

    // Dismiss: nothing changes on the map; dismissing again is a conflict.
    const dismissed = await call(client, DISMISS_SUGGESTION, { suggestionId: byCommand.EDIT_QUESTION!.id });
    expect(dismissed.status).toBe('DISMISSED');
    expect((await call(client, NODE, { id: lease.id })).question).toBe('Lease cost?');
    // A dismissal is the person's change too: undo opens the suggestion again and takes back nothing older.
    const questionsBefore = (await call(client, NODE, { id: root.id })).children.map((c) => c.question);
    await call(client, UNDO_LAST_CHANGE, { mapId });
    expect((await reviewedOpen(mapId)).map((s) => s.id)).toContain(byCommand.EDIT_QUESTION!.id);
    expect((await call(client, NODE, { id: root.id })).children.map((c) => c.question)).toEqual(questionsBefore);
    await call(client, REDO_LAST_UNDO, { mapId });
    expect((await call(client, CRITIC_SUGGESTIONS, { mapId, status: 'DISMISSED' })).data.map((s) => s.id)).toEqual([
      byCommand.EDIT_QUESTION!.id,
    ]);
    expect(await attempt(client, DISMISS_SUGGESTION, { suggestionId: byCommand.EDIT_QUESTION!.id })).toMatchObject({
      __typename: 'ConflictError',
    });

    // A stranger can neither read nor accept them.
    const bob = server.connect(server.bob.token).client;
    expect(await attempt(bob, CRITIC_SUGGESTIONS, { mapId })).toMatchObject({ __typename: 'ForbiddenError' });
    expect(await attempt(bob, ACCEPT_SUGGESTION, { suggestionId: byCommand.ADD_DEPENDENCY!.id })).toMatchObject({
      __typename: 'ForbiddenError',
    });

    // Accept the dependency: addDependency made it.
    await call(client, ACCEPT_SUGGESTION, { suggestionId: byCommand.ADD_DEPENDENCY!.id });
    const leaseNow = await call(client, NODE, { id: lease.id });
    expect(leaseNow.dependencies.map((d) => d.dependsOn.id)).toEqual([rent.id]);

    // The rent node changed since the review: redoing its conclusion is refused, and the suggestion stays open.
    await call(client, UPDATE_NODE, { input: { id: rent.id, expectedVersion: 2, question: 'Monthly rent?' } });
    expect(await attempt(client, ACCEPT_SUGGESTION, { suggestionId: byCommand.REDO_CONCLUSION!.id })).toMatchObject({
      __typename: 'ConflictError',
      message: expect.stringContaining('Monthly rent?'),
    });
    const open = (await call(client, CRITIC_SUGGESTIONS, { mapId, status: 'OPEN' })).data;
    expect(open.map((s) => s.id)).toEqual([byCommand.REDO_CONCLUSION!.id]);
    expect((await call(client, NODE, { id: rent.id })).staleReason).toBeNull();
  });

  it('should not post again what the person dismissed until what it concerns changed, and tell the critic', async () => {
    const mapId = await createMap(client, 'Open a bakery?');
    await call(client, UPDATE_MAP, { input: { id: mapId, autoRun: false } });
    const root = await createNode(client, mapId, 'Open a bakery?');
    const rent = await createNode(client, mapId, 'Rent?', root.id);
    await createNode(client, mapId, 'Lease cost?', root.id);
    const first = await reviewed(mapId);
    const byCommand = (suggestions: typeof first.suggestions) =>
      Object.fromEntries(suggestions.map((s) => [s.change.command, s]));
    const { ADD_SUB_QUESTION: demand, EDIT_QUESTION: overlap } = byCommand(first.suggestions);
    await call(client, DISMISS_SUGGESTION, { suggestionId: demand!.id });
    await call(client, DISMISS_SUGGESTION, { suggestionId: overlap!.id });
    const dismissedHeading =
      'Findings the person dismissed (nothing they concern changed since; do not report them again):';
    expect(prompts.at(-1)).not.toContain(dismissedHeading);

    // The same findings come back from the model: the dismissed ones are not posted again, and the prompt lists them.
    const second = await reviewed(mapId);
    expect(Object.keys(byCommand(second.suggestions)).sort()).toEqual(['ADD_DEPENDENCY']);
    const [, listed] = prompts.at(-1)!.split(dismissedHeading);
    expect(listed).toContain(
      '- [GAP] n1: Nobody asks whether anyone will buy. (ADD_SUB_QUESTION n1 "Is there demand?")',
    );
    expect(listed).toContain(
      '- [OVERLAP] n2, n3: Rent and lease cost ask the same. (EDIT_QUESTION n3 "Equipment cost?")',
    );

    // The root question changed since: the gap under it may be found again, and is no longer listed as dismissed.
    await call(client, UPDATE_NODE, { input: { id: root.id, expectedVersion: 1, question: 'Open a bakery in town?' } });
    const third = await reviewed(mapId);
    expect(Object.keys(byCommand(third.suggestions)).sort()).toEqual(['ADD_DEPENDENCY', 'ADD_SUB_QUESTION']);
    expect(byCommand(third.suggestions).ADD_SUB_QUESTION).toMatchObject({ status: 'OPEN', nodeIds: [root.id] });
    const [, stillListed] = prompts.at(-1)!.split(dismissedHeading);
    expect(stillListed).not.toContain('Nobody asks');
    expect(stillListed).toContain('Rent and lease cost ask the same.');
    expect((await call(client, NODE, { id: rent.id })).question).toBe('Rent?');
  });

  it('should review a subtree of a Chinese map in Chinese, redo a conclusion and edit a question', async () => {
    const mapId = await createMap(client, '要不要开一家面包店？');
    await call(client, UPDATE_MAP, { input: { id: mapId, autoRun: false } });
    const root = await createNode(client, mapId, '要不要开一家面包店？');
    const costs = await createNode(client, mapId, '成本是多少？', root.id);
    const rent = await createNode(client, mapId, '房租多少？', costs.id);
    await createNode(client, mapId, '租金多少？', costs.id);
    await call(client, SET_CONCLUSION, { input: { nodeId: rent.id, conclusion: '每月两万元。' } });

    const { suggestions } = await reviewed(mapId, costs.id);
    // Only the subtree was read, in Chinese.
    expect(prompts.at(-1)).toContain('审阅者');
    expect(prompts.at(-1)).toContain('[n1] 成本是多少？');
    expect(prompts.at(-1)).not.toContain('] 要不要开一家面包店');
    const [overlap, unsupported] = suggestions.sort((a, b) => a.kind.localeCompare(b.kind));
    expect(overlap).toMatchObject({
      kind: 'OVERLAP',
      explanation: '两个子问题都在问成本。',
      nodeIds: [costs.id, rent.id],
    });
    expect(unsupported).toMatchObject({ kind: 'UNSUPPORTED', change: { command: 'REDO_CONCLUSION', nodeId: rent.id } });

    // Redo: the conclusion is kept but marked out of date, for the review's reason.
    await call(client, ACCEPT_SUGGESTION, { suggestionId: unsupported!.id });
    const flagged = await call(client, NODE, { id: rent.id });
    expect(flagged).toMatchObject({ staleReason: 'FLAGGED_BY_REVIEW', conclusion: '每月两万元。' });
    await call(client, ACCEPT_SUGGESTION, { suggestionId: overlap!.id });
    expect((await call(client, NODE, { id: rent.id })).question).toBe('设备要花多少钱？');
  });

  it('should refuse a review of a node of another map, or of a map not yours, changing nothing', async () => {
    const mine = await createMap(client, 'Mine');
    const other = await createMap(client, 'Other');
    const node = await createNode(client, other, 'Elsewhere?');
    expect(await attempt(client, START_CRITIC, { input: { mapId: mine, nodeId: node.id } })).toMatchObject({
      __typename: 'NotFoundError',
    });
    const bob = server.connect(server.bob.token).client;
    expect(await attempt(bob, START_CRITIC, { input: { mapId: mine } })).toMatchObject({
      __typename: 'ForbiddenError',
    });
  });
});
