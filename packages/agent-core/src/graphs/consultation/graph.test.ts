import { describe, expect, it } from 'vitest';
import { OfflineModel } from '../../model/offline-model.ts';
import { ControlledModel } from '../../testing/controlled-model.ts';
import { ScriptedModel } from '../../testing/scripted-model.ts';
import { decision, gate, reply, setUpConsultation } from './graph.test-helpers.ts';

describe('consultation graph', () => {
  it('should start the planner while the front reply is still being written, and store the reply first', async () => {
    const model = new ControlledModel({
      planner: [
        {
          value: decision({
            next: 'db_writer',
            record: { kind: 'REQUIREMENT', content: 'a tea shop', sourceMessageId: 'm1' },
            plan: ['Understand the shop'],
          }),
        },
        { value: decision({ next: 'FINISH' }) },
      ],
    });
    // The reply is held open until the planner's call has started: a planner that waits for the reply never
    // starts, and the turn never ends.
    model.script('front', { value: reply('Happy to help with your tea shop.'), gate: model.called('planner') });
    const { conductor, held, store, streamed } = setUpConsultation(model);
    const { turn } = await conductor.send('c1', 'I want a tea shop', 'INTERRUPT');
    expect(await turn).toEqual({ status: 'done' });
    expect(streamed.join('')).toBe('Happy to help with your tea shop.');
    // The plan may be saved while the reply is written; the record the planner decided on follows the reply.
    const replied = store.writes.findIndex((w) => w.startsWith('message ASSISTANT'));
    expect(replied).toBeGreaterThan(-1);
    expect(store.writes.indexOf('record REQUIREMENT a tea shop')).toBeGreaterThan(replied);
    expect(held().records.map((r) => r.content)).toEqual(['a tea shop']);
    expect(held().logs).toEqual(['Plan updated: Understand the shop', 'Recorded: a tea shop']);
  });

  it('should let the planner finish on its own when the front agent judges the message to be chat only', async () => {
    const model = new ControlledModel({
      front: [{ value: reply('Hello! What brings you here?', 'chat') }],
      planner: [{ value: decision({ next: 'FINISH' }) }],
    });
    const { conductor, held, streamed } = setUpConsultation(model);
    const { turn } = await conductor.send('c1', 'hi there', 'INTERRUPT');
    expect(await turn).toEqual({ status: 'done' });
    expect(model.calls.map((c) => c.agent).sort()).toEqual(['front', 'planner']);
    expect(held().messages.map((m) => [m.role, m.text])).toEqual([
      ['PERSON', 'hi there'],
      ['ASSISTANT', 'Hello! What brings you here?'],
    ]);
    expect(streamed.join('')).toBe('Hello! What brings you here?');
    expect(held().records).toEqual([]);
    expect(held().logs).toEqual([]);
    expect(held().messages.every((m) => m.role !== 'PERSON' || m.planned)).toBe(true);
  });

  it('should keep what the planner decided on a message the front agent took for chat', async () => {
    const model = new ControlledModel({
      front: [{ value: reply('Nice to meet you!', 'chat') }],
      planner: [
        {
          value: decision({
            next: 'db_writer',
            record: { kind: 'FACT', content: 'lives in Hangzhou', sourceMessageId: 'm1' },
          }),
        },
        { value: decision({ next: 'FINISH' }) },
      ],
    });
    const { conductor, held } = setUpConsultation(model);
    expect(await (await conductor.send('c1', 'hi, greetings from Hangzhou', 'INTERRUPT')).turn).toEqual({
      status: 'done',
    });
    expect(held().records.map((r) => r.content)).toEqual(['lives in Hangzhou']);
    expect(held().messages.map((m) => m.text)).toEqual(['hi, greetings from Hangzhou', 'Nice to meet you!']);
  });

  it('should write a record and a note, then ask the person through the front agent', async () => {
    const model = new ControlledModel({
      front: [{ value: reply('Got it, a shop for handmade tea.') }],
      planner: [
        {
          value: decision({
            next: 'db_writer',
            record: { kind: 'REQUIREMENT', content: 'sells handmade tea online', sourceMessageId: 'm1' },
            plan: ['Understand the shop', 'Budget', 'Recommend a platform'],
            currentStep: 0,
            context: { product: 'handmade tea' },
          }),
        },
        { value: decision({ next: 'note_writer', note: { path: 'shop/overview', content: '# Tea shop\n\nOnline.' } }) },
        { value: decision({ next: 'front', askUser: 'What monthly budget do you have?', currentStep: 1 }) },
      ],
    });
    const { conductor, held, store } = setUpConsultation(model);
    const { turn } = await conductor.send('c1', 'I want to sell my handmade tea online', 'INTERRUPT');
    expect(await turn).toEqual({ status: 'done' });

    expect(held().records).toEqual([
      { id: expect.any(String), kind: 'REQUIREMENT', content: 'sells handmade tea online', sourceMessageId: 'm1' },
    ]);
    expect([...store.notes]).toEqual([['shop/overview.md', '# Tea shop\n\nOnline.']]);
    expect(held().messages.map((m) => m.text)).toEqual([
      'I want to sell my handmade tea online',
      'Got it, a shop for handmade tea.',
      'What monthly budget do you have?',
    ]);
    expect(held().plan).toEqual(['Understand the shop', 'Budget', 'Recommend a platform']);
    expect(held().currentStep).toBe(1);
    expect(held().context).toEqual({ product: 'handmade tea' });
    expect(held().logs).toEqual([
      'Plan updated: Understand the shop',
      'Recorded: sells handmade tea online',
      'Note written: shop/overview.md',
      'Plan updated: Budget',
    ]);
    // The planner is told what it already did in this turn, and sees the person's message as new.
    const prompts = model.callsOf('planner').map((c) => c.prompt);
    expect(prompts[0]).toContain("The person's new messages (plan with these):\n[m1] Person: I want to sell");
    expect(prompts[1]).toMatch(/Done in this turn:\n- record r\d+ written \(REQUIREMENT\)/);
    expect(prompts[2]).toContain('note shop/overview.md written');
    expect(store.writes.at(-1)).toBe('turn done');
  });

  it('should show the planner of a later turn the records and notes kept before, the most recent within a bound', async () => {
    const model = new ControlledModel({
      front: [{ value: reply('Tea, noted.') }, { value: reply('A budget of 500, noted.') }],
      planner: [
        {
          value: decision({
            next: 'note_writer',
            record: { kind: 'FACT', content: 'sells tea', sourceMessageId: 'm1' },
            note: { path: 'shop.md', content: '# Tea shop' },
          }),
        },
        { value: decision({ next: 'FINISH' }) },
        { value: decision({ next: 'FINISH' }) },
      ],
    });
    const { conductor, store } = setUpConsultation(model);
    for (let i = 1; i <= 24; i++)
      await store.writeRecord('c1', {
        kind: 'FACT',
        content: `old ${i} ${'in detail '.repeat(100)}`,
        sourceMessageId: null,
      });
    expect(await (await conductor.send('c1', 'I sell tea', 'INTERRUPT')).turn).toEqual({ status: 'done' });
    expect(await (await conductor.send('c1', 'my budget is 500', 'INTERRUPT')).turn).toEqual({ status: 'done' });
    const later = model.callsOf('planner')[2]?.prompt ?? '';
    expect(later).toContain('Already recorded (do not record these again):\n- [FACT] old 6 in detail');
    expect(later).toMatch(/- \[FACT\] old 24 in detail [^\n]*\n- \[FACT\] sells tea\n/);
    expect(later).not.toContain('- [FACT] old 5 in detail');
    // Long records are clipped: the prompt stays within the bound the compression test holds prompts to.
    expect(later.length).toBeLessThan(12_000);
    expect(later).toContain('Notes already written (write one again only to change it):\n- shop.md\n');
    expect(later).toContain('nor what is already recorded');
  });

  it('should refuse a note path that leaves the notes folder, write nothing and tell the planner', async () => {
    const model = new ControlledModel({
      front: [{ value: reply('Let me write that down.') }],
      planner: [
        { value: decision({ next: 'note_writer', note: { path: '../../etc/passwd', content: 'x' } }) },
        { value: decision({ next: 'FINISH' }) },
      ],
    });
    const { conductor, held, store } = setUpConsultation(model);
    expect(await (await conductor.send('c1', 'note my address', 'INTERRUPT')).turn).toEqual({ status: 'done' });
    expect(store.notes.size).toBe(0);
    expect(held().logs).toEqual(['Note refused: ../../etc/passwd']);
    expect(model.callsOf('planner')[1]?.prompt).toContain('note ../../etc/passwd refused: note path refused');
  });

  it('should stop a planner that never finishes at the bound of planner calls', async () => {
    const again = {
      value: decision({ next: 'db_writer', record: { kind: 'FACT', content: 'again', sourceMessageId: null } }),
    };
    const model = new ControlledModel({ front: [{ value: reply('ok') }], planner: [again, again, again, again] });
    const { conductor, held } = setUpConsultation(model, { maxPlannerCalls: 3 });
    expect(await (await conductor.send('c1', 'go', 'INTERRUPT')).turn).toEqual({ status: 'done' });
    expect(model.callsOf('planner')).toHaveLength(3);
    // The same record from the same message is written once, however often the planner decides it.
    expect(held().records).toHaveLength(1);
    // A record without a known source message is drawn from the person's latest message.
    expect(held().records[0]?.sourceMessageId).toBe('m1');
  });

  it('should fail the turn visibly with the raw answer when the planner answer is invalid, writing nothing', async () => {
    const model = new ScriptedModel({ front: [reply('Sure.')], planner: [{ next: 'somewhere', askUser: 3 }] });
    const { conductor, held } = setUpConsultation(model);
    const outcome = await (await conductor.send('c1', 'plan my trip', 'INTERRUPT')).turn;
    expect(outcome).toMatchObject({
      status: 'failed',
      code: 'MODEL_UNPARSEABLE',
      raw: '{"next":"somewhere","askUser":3}',
    });
    expect(held().records).toEqual([]);
    expect(held().messages.map((m) => m.text)).toEqual(['plan my trip', 'Sure.']);
    // The message stays unplanned: the next turn plans it again.
    expect(held().messages[0]).toMatchObject({ role: 'PERSON', planned: false });
  });

  it('should still store a reply being written when the planner beside it fails, then fail the turn', async () => {
    const failing = gate();
    const writing = gate();
    const model = new ControlledModel({
      planner: [{ value: { next: 'nowhere' }, gate: failing.promise }],
      front: [{ value: reply('Let me think about your trip.'), gate: writing.promise }],
    });
    const { conductor, held } = setUpConsultation(model);
    const { turn } = await conductor.send('c1', 'plan my trip', 'INTERRUPT');
    await Promise.all([model.called('planner'), model.called('front')]);
    failing.open();
    // The planner's failure reaches the graph's runner through promise callbacks alone, all run before the next
    // turn of the event loop: a runner that aborted the step's other tasks would have aborted the reply by then.
    await new Promise((resolve) => setImmediate(resolve));
    writing.open();
    const outcome = await turn;
    expect(outcome).toMatchObject({ status: 'failed', code: 'MODEL_UNPARSEABLE', raw: '{"next":"nowhere"}' });
    expect(held().messages.map((m) => m.text)).toEqual(['plan my trip', 'Let me think about your trip.']);
    expect(held().messages[0]).toMatchObject({ planned: false });
    expect(held().outcomes.map((o) => o.status)).toEqual(['failed']);
  });

  it('should keep the person’s words as requirements on the offline model, in their language', async () => {
    const { conductor, held } = setUpConsultation(new OfflineModel(), { language: 'zh' });
    expect(await (await conductor.send('c1', '我想开一家茶叶网店', 'INTERRUPT')).turn).toEqual({ status: 'done' });
    expect(held().messages[1]?.text).toMatch(/^【离线草稿】已记下：「我想开一家茶叶网店」/);
    expect(held().records).toEqual([
      { id: expect.any(String), kind: 'REQUIREMENT', content: '我想开一家茶叶网店', sourceMessageId: 'm1' },
    ]);
    expect(held().logs).toEqual(['已记录: 我想开一家茶叶网店']);
  });
});
