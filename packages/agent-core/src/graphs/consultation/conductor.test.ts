import { describe, expect, it, vi } from 'vitest';
import { isAgentError } from '../../errors/agent-error.ts';
import { ControlledModel } from '../../testing/controlled-model.ts';
import { ConsultationBusyError } from './consultation-busy-error.ts';
import { decision, gate, reply, setUpConsultation } from './graph.test-helpers.ts';
import { noteWriteKey } from './write-keys.ts';

/** Records whether a promise has settled, without waiting for it. */
function watch<T>(promise: Promise<T>) {
  const state = { settled: false };
  promise.then(() => {
    state.settled = true;
  });
  return state;
}

/** Waits until the consultation holds `count` messages (the front reply is stored while the planner works). */
const holds = (held: () => { messages: unknown[] }, count: number) =>
  vi.waitFor(() => expect(held().messages).toHaveLength(count));

describe('consultation conductor', () => {
  it('should store and stream the front reply while the planner still works', async () => {
    const slow = gate();
    const model = new ControlledModel({
      front: [{ value: reply('Happy to help with your tea shop.') }],
      planner: [
        { value: decision({ record: { kind: 'FACT', content: 'tea', sourceMessageId: null } }), gate: slow.promise },
      ],
    });
    const { conductor, held, streamed } = setUpConsultation(model);
    const { turn } = await conductor.send('c1', 'I sell tea', 'INTERRUPT');
    const turnState = watch(turn);
    await model.called('planner');
    // The planner is thinking; the person gets the whole reply meanwhile.
    await holds(held, 2);
    expect(streamed.join('')).toBe('Happy to help with your tea shop.');
    expect(held().messages.map((m) => m.role)).toEqual(['PERSON', 'ASSISTANT']);
    expect(held().busy).toBe(true);
    expect(turnState.settled).toBe(false);
    expect(held().records).toEqual([]);
    slow.open();
    expect(await turn).toEqual({ status: 'done' });
    expect(held().records.map((r) => r.content)).toEqual(['tea']);
    expect(held().busy).toBe(false);
  });

  it('should interrupt a stale plan, write nothing of it, and plan again with both messages', async () => {
    const stale = gate();
    const model = new ControlledModel({
      front: [{ value: reply('A shop for tea, noted.') }, { value: reply('Coffee instead, understood.') }],
      planner: [
        {
          value: decision({
            next: 'note_writer',
            record: { kind: 'REQUIREMENT', content: 'sells tea', sourceMessageId: 'm1' },
            note: { path: 'tea.md', content: '# Tea' },
            plan: ['Tea shop'],
          }),
          gate: stale.promise,
        },
        {
          value: decision({
            record: { kind: 'DECISION', content: 'sells coffee, not tea', sourceMessageId: 'm3' },
            plan: ['Coffee shop'],
          }),
        },
      ],
    });
    const { conductor, held, store } = setUpConsultation(model);
    const first = await conductor.send('c1', 'I want to sell tea', 'INTERRUPT');
    await model.called('planner');
    await holds(held, 2);
    const second = await conductor.send('c1', 'Actually, coffee instead of tea', 'INTERRUPT');
    expect(await first.turn).toEqual({ status: 'interrupted' });
    // The stale planner's answer arriving now changes nothing.
    stale.open();
    expect(await second.turn).toEqual({ status: 'done' });
    expect(first.turn).not.toBe(second.turn);

    expect(held().records.map((r) => r.content)).toEqual(['sells coffee, not tea']);
    expect(store.notes.size).toBe(0);
    expect(held().plan).toEqual(['Coffee shop']);
    const prompt = model.callsOf('planner')[1]?.prompt ?? '';
    expect(prompt).toContain(
      "The person's new messages (plan with these):\n[m1] Person: I want to sell tea\n[m3] Person: Actually, coffee instead of tea",
    );
    expect(held().outcomes.map((o) => o.status)).toEqual(['interrupted', 'done']);
    expect(held().messages.every((m) => m.role !== 'PERSON' || m.planned)).toBe(true);
  });

  it('should interrupt a front reply that is still being written; it is never stored', async () => {
    const writing = gate();
    const model = new ControlledModel({
      front: [
        { value: reply('About your first message…', 'chat'), gate: writing.promise },
        { value: reply('Both noted.', 'chat') },
      ],
      // The planner runs beside each reply; on chat it finishes.
      planner: [{ value: decision({}) }, { value: decision({}) }],
    });
    const { conductor, held } = setUpConsultation(model);
    const first = await conductor.send('c1', 'hello', 'INTERRUPT');
    await model.called('front');
    const second = await conductor.send('c1', 'and one more thing', 'INTERRUPT');
    expect(await first.turn).toEqual({ status: 'interrupted' });
    writing.open();
    expect(await second.turn).toEqual({ status: 'done' });
    expect(held().messages.map((m) => m.text)).toEqual(['hello', 'and one more thing', 'Both noted.']);
  });

  it('should enqueue a message and handle it after the running turn', async () => {
    const slow = gate();
    const model = new ControlledModel({
      front: [{ value: reply('Tea, noted.') }, { value: reply('And a budget of 500.') }],
      planner: [
        {
          value: decision({ record: { kind: 'REQUIREMENT', content: 'tea', sourceMessageId: 'm1' } }),
          gate: slow.promise,
        },
        { value: decision({ record: { kind: 'FACT', content: 'budget 500', sourceMessageId: 'm3' } }) },
      ],
    });
    const { conductor, held } = setUpConsultation(model);
    const first = await conductor.send('c1', 'I sell tea', 'ENQUEUE');
    await model.called('planner');
    await holds(held, 2);
    const second = await conductor.send('c1', 'my budget is 500', 'ENQUEUE');
    const secondState = watch(second.turn);
    expect(model.callsOf('front')).toHaveLength(1);
    slow.open();
    expect(await first.turn).toEqual({ status: 'done' });
    expect(await second.turn).toEqual({ status: 'done' });
    expect(secondState.settled).toBe(true);
    expect(held().records.map((r) => r.content)).toEqual(['tea', 'budget 500']);
    const prompt = model.callsOf('planner')[1]?.prompt ?? '';
    expect(prompt).toContain("The person's new messages (plan with these):\n[m3] Person: my budget is 500\n");
    expect(prompt).not.toContain('plan with these):\n[m1]');
  });

  it('should reject a message with ConsultationBusyError while a turn runs, storing nothing', async () => {
    const slow = gate();
    const model = new ControlledModel({
      front: [{ value: reply('Tea, noted.') }],
      planner: [{ value: decision({}), gate: slow.promise }],
    });
    const { conductor, held } = setUpConsultation(model);
    const first = await conductor.send('c1', 'I sell tea', 'REJECT');
    await model.called('planner');
    await holds(held, 2);
    const refused = await conductor.send('c1', 'and coffee', 'REJECT').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ConsultationBusyError);
    expect(isAgentError(refused, 'CONSULTATION_BUSY')).toBe(true);
    expect(held().messages.map((m) => m.text)).toEqual(['I sell tea', 'Tea, noted.']);
    slow.open();
    expect(await first.turn).toEqual({ status: 'done' });
    expect(conductor.busy('c1')).toBe(false);
  });

  it('should plan messages left unplanned when resumed (a restart cut the turn short)', async () => {
    const model = new ControlledModel({
      front: [{ value: reply('Back again: tea.') }],
      planner: [{ value: decision({ record: { kind: 'FACT', content: 'tea', sourceMessageId: 'm1' } }) }],
    });
    const { conductor, held, store } = setUpConsultation(model);
    await store.appendMessage('c1', { role: 'PERSON', text: 'I sell tea' });
    expect(await conductor.resume('c1')).toEqual({ status: 'done' });
    expect(held().records.map((r) => r.content)).toEqual(['tea']);
    expect(held().messages[0]).toMatchObject({ planned: true });
  });

  it('should not write a record or a note twice when a turn cut short after writing them plans the message again', async () => {
    const kept = decision({
      next: 'note_writer',
      record: { kind: 'FACT', content: 'sells tea', sourceMessageId: 'm1' },
      note: { path: 'shop.md', content: '# Tea shop' },
    });
    const model = new ControlledModel({
      front: [{ value: reply('Tea, noted.') }],
      // The second call's answer is invalid: the turn fails after its writes, its message left unplanned.
      planner: [{ value: kept }, { value: { next: 'nowhere' } }, { value: kept }, { value: decision({}) }],
    });
    const { conductor, held, store } = setUpConsultation(model);
    const cut = await (await conductor.send('c1', 'I sell tea', 'INTERRUPT')).turn;
    expect(cut).toMatchObject({ status: 'failed', code: 'MODEL_UNPARSEABLE' });
    expect(held().messages[0]).toMatchObject({ planned: false });
    expect(await conductor.resume('c1')).toEqual({ status: 'done' });
    expect(model.callsOf('planner')).toHaveLength(4);
    expect(held().records.map((r) => r.content)).toEqual(['sells tea']);
    expect(store.writes.filter((w) => w.startsWith('record') || w.startsWith('note'))).toEqual([
      'note shop.md',
      'record FACT sells tea',
    ]);
    // The progress log tells what was written and what the turn run again found already kept.
    expect(held().logs).toEqual([
      'Note written: shop.md',
      'Recorded: sells tea',
      'Note already written: shop.md',
      'Already recorded: sells tea',
    ]);
    expect(model.callsOf('planner')[3]?.prompt).toMatch(/record r\d+ already kept \(FACT\): sells tea/);
    // A note with a changed content is a new version.
    await store.write(
      'c1',
      { path: 'shop.md', content: '# Tea and cups' },
      {
        idempotencyKey: noteWriteKey('c1', 'm1', { path: 'shop.md', content: '# Tea and cups' }),
      },
    );
    expect(store.notes.get('shop.md')).toBe('# Tea and cups');
    expect(held().messages[0]).toMatchObject({ planned: true });
  });

  it('should not answer a message again when its reply was stored before the turn was cut short', async () => {
    const model = new ControlledModel({
      planner: [{ value: decision({ record: { kind: 'FACT', content: 'tea', sourceMessageId: 'm1' } }) }],
    });
    const { conductor, held, store } = setUpConsultation(model);
    await store.appendMessage('c1', { role: 'PERSON', text: 'I sell tea' });
    await store.appendMessage('c1', { role: 'ASSISTANT', text: 'Tea, noted.' });
    expect(await conductor.resume('c1')).toEqual({ status: 'done' });
    expect(model.callsOf('front')).toHaveLength(0);
    expect(held().messages.map((m) => m.text)).toEqual(['I sell tea', 'Tea, noted.']);
    expect(held().records.map((r) => r.content)).toEqual(['tea']);
    expect(held().messages[0]).toMatchObject({ planned: true });
  });
});
