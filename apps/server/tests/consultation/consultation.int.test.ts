import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OpenAiModel } from '@thinkingmap/agent-core';
import {
  CONSULTATION,
  CONSULTATION_NOTE,
  CREATE_MAP,
  DELETE_CONSULTATION_RECORD,
  EVENTS,
  SEND_CONSULTATION_MESSAGE,
  SET_CONSULTATION_STRATEGY,
  START_CONSULTATION,
  UPDATE_CONSULTATION_RECORD,
} from '@thinkingmap/client';
import { logicProviders } from '@thinkingmap/db/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/agent-driver.ts';
import { type SchemaAnswer, startScriptedModel } from '../helpers/scripted-model-server.ts';
import { attempt, call, startTestServer, type TestServer } from '../helpers/test-server.ts';

const providers = logicProviders;

const front = (reply: string, route = 'plan') => ({ reply, route });
const decision = (fields: object) => ({ next: 'FINISH', askUser: null, record: null, note: null, ...fields });

describe.each(providers)('consultations through the API on %s', (provider) => {
  let server: TestServer;
  let notesDir: string;
  let model: Awaited<ReturnType<typeof startScriptedModel>>;

  async function open(script: Record<string, SchemaAnswer>, strategy?: 'INTERRUPT' | 'ENQUEUE' | 'REJECT') {
    model = await startScriptedModel(script);
    notesDir = await mkdtemp(join(tmpdir(), 'tm-notes-'));
    // The scripted endpoint's first answer loads its tokenizer: give the SDK room for that on a loaded machine.
    const sdk = new OpenAiModel({
      apiKey: 'test-key',
      baseURL: model.server.baseURL,
      model: 'scripted',
      timeoutMs: 20_000,
    });
    server = await startTestServer(provider, { model: sdk, app: { notesDir } });
    const { client } = server.connect(server.alice.token);
    const map = await call(client, CREATE_MAP, { input: { title: 'Tea shop' } });
    const consultation = await call(client, START_CONSULTATION, {
      input: { mapId: map.id, ...(strategy ? { strategy } : {}) },
    });
    return { client, mapId: map.id as string, id: consultation.id as string };
  }

  const read = (client: ReturnType<TestServer['connect']>['client'], id: string) => call(client, CONSULTATION, { id });
  const idle = (client: ReturnType<TestServer['connect']>['client'], id: string, messages: number) =>
    eventually(async () => {
      const c = await read(client, id);
      return !c.busy && c.messages.length >= messages && c;
    }, `consultation idle with ${messages} messages`);
  const requestsOf = (schema: string) =>
    model.server.requests.filter((r) => r.body.response_format?.json_schema?.name === schema);

  beforeEach(() => {
    notesDir = '';
  });
  afterEach(async () => {
    await server?.close();
    await model?.server.close();
    if (notesDir) await rm(notesDir, { recursive: true, force: true });
  });

  it('should answer before a slow planner finishes, then write a record and a note the person can read, edit and delete', async () => {
    const { client, id } = await open({
      front_reply: () => front('Happy to help with your tea shop.'),
      planner_decision: (_prompt, n) =>
        n === 1
          ? {
              content: JSON.stringify(
                decision({
                  next: 'note_writer',
                  record: { kind: 'REQUIREMENT', content: 'sell handmade tea online', sourceMessageId: null },
                  note: { path: 'shop/overview', content: '# Tea shop\n\nHandmade tea, sold online.' },
                  plan: ['Understand the shop', 'Choose a platform'],
                  currentStep: 0,
                }),
              ),
              delayMs: 1500,
            }
          : decision({ next: 'FINISH' }),
    });
    const sent = await call(client, SEND_CONSULTATION_MESSAGE, {
      input: { consultationId: id, text: 'I want to sell my handmade tea online' },
    });
    expect(sent.messageId).toBeTruthy();
    // The reply is stored while the planner's call is still on its way.
    const answered = await eventually(async () => {
      const c = await read(client, id);
      return c.messages.length === 2 && c;
    }, 'the front reply');
    expect(answered.messages[1]).toMatchObject({ role: 'ASSISTANT', text: 'Happy to help with your tea shop.' });
    expect(answered.busy).toBe(true);
    expect(answered.records).toEqual([]);

    const done = await idle(client, id, 2);
    expect(done.records).toEqual([
      expect.objectContaining({
        kind: 'REQUIREMENT',
        content: 'sell handmade tea online',
        sourceMessageId: sent.messageId,
      }),
    ]);
    expect(done.plan).toEqual(['Understand the shop', 'Choose a platform']);
    expect(done.notes).toEqual([expect.objectContaining({ path: 'shop/overview.md' })]);
    expect(done.logs.map((l) => l.text)).toEqual(
      expect.arrayContaining(['Plan updated: Understand the shop', 'Recorded: sell handmade tea online']),
    );
    const note = await call(client, CONSULTATION_NOTE, { id, path: 'shop/overview.md' });
    expect(note.content).toBe('# Tea shop\n\nHandmade tea, sold online.');

    // The person edits and deletes the record; each change is an event on the map's feed.
    const recordId = done.records[0]?.id as string;
    const edited = await call(client, UPDATE_CONSULTATION_RECORD, {
      input: { id: recordId, kind: 'DECISION', content: 'sell tea and cups online', expectedVersion: 1 },
    });
    expect(edited).toMatchObject({ kind: 'DECISION', content: 'sell tea and cups online', version: 2 });
    const stale = await attempt(client, UPDATE_CONSULTATION_RECORD, {
      input: { id: recordId, content: 'x', expectedVersion: 1 },
    });
    expect(stale.__typename).toBe('VersionConflictError');
    await call(client, DELETE_CONSULTATION_RECORD, { id: recordId });
    expect((await read(client, id)).records).toEqual([]);
    const events = await call(client, EVENTS, { mapId: done.mapId as string, after: 0, first: 200 });
    const changes = events.events.flatMap((e) => ('change' in e ? [e.change] : []));
    expect(changes).toEqual(
      expect.arrayContaining([
        'STARTED',
        'MESSAGE',
        'PLAN',
        'RECORD_ADDED',
        'NOTE_WRITTEN',
        'RECORD_UPDATED',
        'RECORD_DELETED',
      ]),
    );
    expect(events.events.some((e) => e.__typename === 'ConsultationTokens')).toBe(true);

    // Another person sees none of it.
    const bob = server.connect(server.bob.token).client;
    expect((await attempt(bob, CONSULTATION, { id })).__typename).toBe('ForbiddenError');
    expect(
      (await attempt(bob, SEND_CONSULTATION_MESSAGE, { input: { consultationId: id, text: 'hi' } })).__typename,
    ).toBe('ForbiddenError');
  });

  it('should stream the front reply while a slow planner works beside it, the plan and record arriving after', async () => {
    let plannerStarted: () => void = () => {};
    const planning = new Promise<void>((resolve) => {
      plannerStarted = resolve;
    });
    const { client, id, mapId } = await open({
      // The reply streams a first piece, then stays open until the planner's call has arrived: a planner that
      // starts only after the reply never arrives, and the reply times out.
      front_reply: () => ({
        content: JSON.stringify(front('Happy to help with your tea shop.')),
        chunkSize: 8,
        pauseAfterChars: 8,
        resume: planning,
      }),
      planner_decision: (_prompt, n) => {
        if (n > 1) return decision({});
        plannerStarted();
        return {
          content: JSON.stringify(
            decision({
              next: 'db_writer',
              record: { kind: 'REQUIREMENT', content: 'a tea shop', sourceMessageId: null },
              plan: ['Understand the shop'],
            }),
          ),
          delayMs: 3000,
        };
      },
    });
    await call(client, SEND_CONSULTATION_MESSAGE, { input: { consultationId: id, text: 'I want a tea shop' } });
    const answered = await eventually(async () => {
      const c = await read(client, id);
      return c.messages.length === 2 && c;
    }, 'the front reply');
    // The whole reply is there while the planner's answer is still on its way.
    expect(answered.messages[1]).toMatchObject({ role: 'ASSISTANT', text: 'Happy to help with your tea shop.' });
    expect(requestsOf('planner_decision')).toHaveLength(1);
    expect(answered).toMatchObject({ busy: true, plan: [], records: [] });

    const done = await idle(client, id, 2);
    expect(done.records.map((r) => r.content)).toEqual(['a tea shop']);
    expect(done.plan).toEqual(['Understand the shop']);
    const events = await call(client, EVENTS, { mapId, after: 0, first: 200 });
    const order = events.events.flatMap((e) =>
      e.__typename === 'ConsultationTokens' ? ['TOKENS'] : 'change' in e ? [e.change] : [],
    );
    const at = (name: string) => order.indexOf(name);
    const replied = order.lastIndexOf('MESSAGE');
    expect(at('TOKENS')).toBeGreaterThan(-1);
    expect(at('TOKENS')).toBeLessThan(replied);
    expect(replied).toBeLessThan(at('PLAN'));
    expect(at('PLAN')).toBeLessThan(at('RECORD_ADDED'));
  });

  it('should interrupt a stale plan: it writes no record and no note, and the next planner prompt has the new requirement', async () => {
    const { client, id, mapId } = await open({
      front_reply: (_p, n) => front(n === 1 ? 'Tea, noted.' : 'Coffee instead, understood.'),
      planner_decision: (_prompt, n) =>
        n === 1
          ? {
              content: JSON.stringify(
                decision({
                  next: 'note_writer',
                  record: { kind: 'REQUIREMENT', content: 'sells tea', sourceMessageId: null },
                  note: { path: 'tea-shop', content: '# Tea shop' },
                }),
              ),
              delayMs: 8000,
            }
          : decision({ record: { kind: 'DECISION', content: 'sells coffee, not tea', sourceMessageId: null } }),
    });
    await call(client, SEND_CONSULTATION_MESSAGE, { input: { consultationId: id, text: 'I want to sell tea' } });
    await eventually(async () => requestsOf('planner_decision').length === 1, 'the first planner call');
    // The planner starts beside the reply: the second message comes once the first reply is stored.
    await eventually(async () => (await read(client, id)).messages.length === 2, 'the first reply');
    await call(client, SEND_CONSULTATION_MESSAGE, { input: { consultationId: id, text: 'Actually coffee, not tea' } });
    const done = await idle(client, id, 4);
    expect(done.records.map((r) => r.content)).toEqual(['sells coffee, not tea']);
    expect(done.notes).toEqual([]);
    const events = await call(client, EVENTS, { mapId, after: 0, first: 200 });
    expect(events.events.some((e) => 'change' in e && e.change === 'NOTE_WRITTEN')).toBe(false);
    const prompt =
      requestsOf('planner_decision')[1]
        ?.body.messages?.map((m) => m.content)
        .join('\n') ?? '';
    expect(prompt).toMatch(
      /plan with these\):\n\[\w+\] Person: I want to sell tea\n\[\w+\] Person: Actually coffee, not tea/,
    );
    expect(done.messages.every((m) => m.role !== 'PERSON' || m.planned)).toBe(true);
  });

  it('should refuse a message with ConsultationBusyError when the strategy is REJECT, and handle it after with ENQUEUE', async () => {
    const slowPlanner: SchemaAnswer = (_p, n) =>
      n === 1 ? { content: JSON.stringify(decision({})), delayMs: 1500 } : decision({});
    const { client, id } = await open({ front_reply: () => front('Noted.'), planner_decision: slowPlanner }, 'REJECT');
    await call(client, SEND_CONSULTATION_MESSAGE, { input: { consultationId: id, text: 'first' } });
    await eventually(async () => requestsOf('planner_decision').length === 1, 'the planner call');
    const refused = await attempt(client, SEND_CONSULTATION_MESSAGE, { input: { consultationId: id, text: 'second' } });
    expect(refused).toMatchObject({ __typename: 'ConsultationBusyError', code: 'CONFLICT' });
    const done = await idle(client, id, 2);
    expect(done.messages.map((m) => m.text)).toEqual(['first', 'Noted.']);
    await server.close();
    await model.server.close();

    const second = await open({ front_reply: () => front('Noted.'), planner_decision: slowPlanner }, 'ENQUEUE');
    await call(second.client, SEND_CONSULTATION_MESSAGE, { input: { consultationId: second.id, text: 'first' } });
    await eventually(async () => requestsOf('planner_decision').length === 1, 'the planner call');
    await call(second.client, SEND_CONSULTATION_MESSAGE, { input: { consultationId: second.id, text: 'second' } });
    // The second message waits for the running turn: no second front call while the planner works.
    expect(requestsOf('front_reply')).toHaveLength(1);
    const after = await idle(second.client, second.id, 4);
    expect(after.messages.map((m) => m.text)).toEqual(['first', 'Noted.', 'second', 'Noted.']);
    const prompt =
      requestsOf('planner_decision')[1]
        ?.body.messages?.map((m) => m.content)
        .join('\n') ?? '';
    expect(prompt).toMatch(/plan with these\):\n\[\w+\] Person: second\n/);
  });

  /** A front agent whose first reply is held half-way until `release`, each reply saying which message it answers. */
  function heldFront() {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const answer: SchemaAnswer = (prompt, n) => {
      const content = JSON.stringify(front(prompt.includes('my budget is 500') ? 'Budget, noted.' : 'Tea, noted.'));
      return n === 1 ? { content, chunkSize: 4, pauseAfterChars: 8, resume: held } : { content, chunkSize: 8 };
    };
    return { answer, release: () => release() };
  }

  it('should answer with ENQUEUE a message sent while the reply to the one before is written, after that reply', async () => {
    const reply = heldFront();
    const { client, id } = await open({ front_reply: reply.answer, planner_decision: () => decision({}) }, 'ENQUEUE');
    await call(client, SEND_CONSULTATION_MESSAGE, { input: { consultationId: id, text: 'I sell tea' } });
    await eventually(async () => requestsOf('front_reply').length === 1, 'the first reply being written');
    const second = await call(client, SEND_CONSULTATION_MESSAGE, {
      input: { consultationId: id, text: 'my budget is 500' },
    });
    reply.release();
    const done = await idle(client, id, 4);
    const first = done.messages[0]!.id;
    expect(done.messages.map((m) => [m.role, m.text, m.answersId, m.planned])).toEqual([
      ['PERSON', 'I sell tea', null, true],
      ['PERSON', 'my budget is 500', null, true],
      ['ASSISTANT', 'Tea, noted.', first, false],
      ['ASSISTANT', 'Budget, noted.', second.messageId, false],
    ]);
    // The second reply's prompt has the conversation as the person lived it: the first reply before the second message.
    const prompt = requestsOf('front_reply')[1]?.body.messages?.map((m) => m.content);
    expect(prompt?.slice(1, 4)).toEqual(['I sell tea', 'Tea, noted.', 'my budget is 500']);
  });

  it('should answer with ENQUEUE every message once, in order, when the server restarts before the queued one is answered', async () => {
    const reply = heldFront();
    const { client, id } = await open(
      {
        front_reply: reply.answer,
        // The first turn's planner thinks long: the server restarts while it does, the queued message unanswered.
        planner_decision: (_p, n) =>
          n === 1 ? { content: JSON.stringify(decision({})), delayMs: 10_000 } : decision({}),
      },
      'ENQUEUE',
    );
    await call(client, SEND_CONSULTATION_MESSAGE, { input: { consultationId: id, text: 'I sell tea' } });
    await eventually(async () => requestsOf('front_reply').length === 1, 'the first reply being written');
    await call(client, SEND_CONSULTATION_MESSAGE, { input: { consultationId: id, text: 'my budget is 500' } });
    reply.release();
    await eventually(async () => (await read(client, id)).messages.length === 3, 'the first reply stored');
    await server.restart();
    const again = server.connect(server.alice.token).client;
    const done = await idle(again, id, 4);
    expect(done.messages.map((m) => [m.role, m.text])).toEqual([
      ['PERSON', 'I sell tea'],
      ['PERSON', 'my budget is 500'],
      ['ASSISTANT', 'Tea, noted.'],
      ['ASSISTANT', 'Budget, noted.'],
    ]);
    expect(done.messages.every((m) => m.role !== 'PERSON' || m.planned)).toBe(true);
    expect(requestsOf('front_reply')).toHaveLength(2);
  });

  it('should change the strategy of a running consultation: the next message during a turn follows the new one', async () => {
    const slowPlanner: SchemaAnswer = (_p, n) =>
      n === 1 ? { content: JSON.stringify(decision({})), delayMs: 1500 } : decision({});
    const { client, id, mapId } = await open({ front_reply: () => front('Noted.'), planner_decision: slowPlanner });
    // Bad input and another person change nothing.
    const bad = await attempt(client, SET_CONSULTATION_STRATEGY, {
      input: { consultationId: 'nope!', strategy: 'REJECT' },
    });
    expect(bad).toMatchObject({ __typename: 'ValidationError', field: 'consultationId' });
    const bob = server.connect(server.bob.token).client;
    const forbidden = await attempt(bob, SET_CONSULTATION_STRATEGY, {
      input: { consultationId: id, strategy: 'REJECT' },
    });
    expect(forbidden.__typename).toBe('ForbiddenError');
    expect((await read(client, id)).strategy).toBe('INTERRUPT');

    const changed = await call(client, SET_CONSULTATION_STRATEGY, {
      input: { consultationId: id, strategy: 'REJECT' },
    });
    expect(changed).toMatchObject({ id, strategy: 'REJECT' });
    await call(client, SEND_CONSULTATION_MESSAGE, { input: { consultationId: id, text: 'first' } });
    await eventually(async () => requestsOf('planner_decision').length === 1, 'the planner call');
    const refused = await attempt(client, SEND_CONSULTATION_MESSAGE, { input: { consultationId: id, text: 'second' } });
    expect(refused.__typename).toBe('ConsultationBusyError');
    // Changed again during the turn: the running turn goes on, the next message waits for it.
    await call(client, SET_CONSULTATION_STRATEGY, { input: { consultationId: id, strategy: 'ENQUEUE' } });
    await call(client, SEND_CONSULTATION_MESSAGE, { input: { consultationId: id, text: 'third' } });
    const done = await idle(client, id, 4);
    expect(done.messages.map((m) => m.text)).toEqual(['first', 'Noted.', 'third', 'Noted.']);
    expect(done.strategy).toBe('ENQUEUE');
    const events = await call(client, EVENTS, { mapId, after: 0, first: 200 });
    const strategies = events.events.flatMap((e) =>
      'change' in e && e.change === 'STRATEGY' && 'line' in e ? [e.line] : [],
    );
    expect(strategies).toEqual(['REJECT', 'ENQUEUE']);
  });

  it('should show the planner of a later turn the records and notes kept before', async () => {
    const { client, id } = await open({
      front_reply: (_p, n) => front(n === 1 ? 'Tea, noted.' : 'A budget of 500, noted.'),
      planner_decision: (_p, n) =>
        n === 1
          ? decision({
              record: { kind: 'FACT', content: 'sells tea', sourceMessageId: null },
              note: { path: 'shop/overview', content: '# Tea shop' },
            })
          : decision({}),
    });
    await call(client, SEND_CONSULTATION_MESSAGE, { input: { consultationId: id, text: 'I sell tea' } });
    await idle(client, id, 2);
    await call(client, SEND_CONSULTATION_MESSAGE, { input: { consultationId: id, text: 'my budget is 500' } });
    const done = await idle(client, id, 4);
    expect(done.records.map((r) => r.content)).toEqual(['sells tea']);
    const later = requestsOf('planner_decision')
      .at(-1)
      ?.body.messages?.map((m) => m.content)
      .join('\n');
    expect(later).toContain('Already recorded (do not record these again):\n- [FACT] sells tea\n');
    expect(later).toContain('Notes already written (write one again only to change it):\n- shop/overview.md\n');
  });

  it('should refuse a note path that leaves the notes folder and write nothing', async () => {
    const { client, id } = await open({
      front_reply: () => front('Writing it down.'),
      planner_decision: (_p, n) =>
        n === 1 ? decision({ next: 'note_writer', note: { path: '../../escape.md', content: 'x' } }) : decision({}),
    });
    await call(client, SEND_CONSULTATION_MESSAGE, { input: { consultationId: id, text: 'note it' } });
    const done = await idle(client, id, 2);
    expect(done.notes).toEqual([]);
    expect(done.logs.map((l) => l.text)).toContain('Note refused: ../../escape.md');
    const read = await attempt(client, CONSULTATION_NOTE, { id, path: '../../etc/passwd' });
    expect(read).toMatchObject({ __typename: 'ValidationError', field: 'path' });
  });

  it('should run again after a restart a turn the server stopped mid-plan, without answering the person twice', async () => {
    const { client, id } = await open({
      front_reply: (_p, n) => front(n === 1 ? 'Tea, noted.' : 'Tea, noted again.'),
      planner_decision: (_p, n) =>
        n === 1
          ? { content: JSON.stringify(decision({})), delayMs: 10_000 }
          : decision({ record: { kind: 'FACT', content: 'sells tea', sourceMessageId: null } }),
    });
    await call(client, SEND_CONSULTATION_MESSAGE, { input: { consultationId: id, text: 'I sell tea' } });
    await eventually(async () => requestsOf('planner_decision').length === 1, 'the planner call');
    // The planner starts beside the reply: the server stops once the reply is stored, while the planner works.
    await eventually(async () => (await read(client, id)).messages.length === 2, 'the reply');
    await server.restart();
    const again = server.connect(server.alice.token).client;
    const done = await eventually(async () => {
      const c = await read(again, id);
      return !c.busy && c.records.length > 0 && c;
    }, 'the turn run again');
    expect(done.records.map((r) => r.content)).toEqual(['sells tea']);
    expect(done.messages.map((m) => [m.role, m.text, m.planned])).toEqual([
      ['PERSON', 'I sell tea', true],
      ['ASSISTANT', 'Tea, noted.', false],
    ]);
    expect(requestsOf('front_reply')).toHaveLength(1);
  });
});
