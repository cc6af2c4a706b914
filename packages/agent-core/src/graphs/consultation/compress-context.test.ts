import { describe, expect, it } from 'vitest';
import { ControlledModel } from '../../testing/controlled-model.ts';
import { decision, reply, setUpConsultation } from './graph.test-helpers.ts';

/** Planner answers for `turns` chat-only turns: the planner runs beside each reply and finishes. */
const finishes = (turns: number) => Array.from({ length: turns }, () => ({ value: decision({}) }));

const long = (turn: number) => `Turn ${turn}: ${'a detail the person gives at length. '.repeat(150)}`;

describe('consultation context compression', () => {
  it('should summarise earlier messages after the configured turns and keep every prompt bounded', async () => {
    const turns = 16;
    const model = new ControlledModel({
      front: Array.from({ length: turns }, (_, i) => ({ value: reply(`Answer ${i + 1}`, 'chat') })),
      planner: finishes(turns),
      summarize: Array.from({ length: turns }, (_, i) => ({
        value: { summary: `Summary ${i + 1}: tea shop, budget.` },
      })),
    });
    const { conductor, held, store } = setUpConsultation(model, { compressAfterTurns: 3 });
    for (let i = 1; i <= turns; i++) {
      expect(await (await conductor.send('c1', long(i), 'INTERRUPT')).turn).toEqual({ status: 'done' });
    }
    const fronts = model.callsOf('front');
    const written = held().messages.reduce((sum, m) => sum + m.text.length, 0);
    // Everything the person wrote is kept in the store; prompts only show a bounded part of it.
    expect(held().messages.filter((m) => m.role === 'PERSON')).toHaveLength(turns);
    expect(written).toBeGreaterThan(80_000);
    const sizes = fronts.map((c) => c.prompt.length);
    expect(Math.max(...sizes)).toBeLessThan(12_000);
    // Compression happened, and the latest prompts carry the latest summary instead of the early turns.
    expect(store.writes.filter((w) => w.startsWith('compress')).length).toBeGreaterThan(3);
    // The last reply's prompt carries the summary written after the turn before it (each turn's compression
    // follows its reply).
    const lastPrompt = fronts.at(-1)?.prompt ?? '';
    const summarised = model.callsOf('summarize').length;
    expect(held().summary).toBe(`Summary ${summarised}: tea shop, budget.`);
    expect(lastPrompt).toContain(`Summary of earlier messages:\nSummary ${summarised - 1}: tea shop, budget.`);
    expect(lastPrompt).not.toContain('Turn 1:');
    expect(lastPrompt).toContain(`Turn ${turns}:`);
    // The summariser saw the earlier summary and the messages it absorbs.
    const summaries = model.callsOf('summarize');
    expect(summaries[1]?.prompt).toContain('Earlier summary:\nSummary 1: tea shop, budget.');
  });

  it('should never compress the person’s messages the planner has not handled', async () => {
    const model = new ControlledModel({
      front: [1, 2, 3].map((i) => ({ value: reply(`Answer ${i}`, 'chat') })),
      planner: finishes(3),
      summarize: [{ value: { summary: 'Earlier: greetings.' } }],
    });
    const { conductor, held, store } = setUpConsultation(model, { compressAfterTurns: 2 });
    for (const text of ['one', 'two']) await (await conductor.send('c1', text, 'INTERRUPT')).turn;
    // A message left unplanned (a failed turn before) stays visible to the planner, never summarised away.
    await store.appendMessage('c1', { role: 'PERSON', text: 'left unplanned' });
    await (await conductor.send('c1', 'three', 'INTERRUPT')).turn;
    const compressed = held()
      .messages.filter((m) => m.compressed)
      .map((m) => m.text);
    expect(compressed).toEqual(['one', 'Answer 1', 'two', 'Answer 2']);
  });

  it('should answer the person before it summarises: the front call never waits for the summary', async () => {
    const model = new ControlledModel({
      front: [1, 2, 3].map((i) => ({ value: reply(`Answer ${i}`, 'chat') })),
      planner: finishes(3),
      summarize: [{ value: { summary: 'Earlier: alpha and beta.' } }],
    });
    const { conductor, held } = setUpConsultation(model, { compressAfterTurns: 2 });
    for (const text of ['alpha', 'beta', 'gamma']) await (await conductor.send('c1', text, 'INTERRUPT')).turn;
    // (The planner's calls, beside each reply, are left out: the order asked about is the reply's and the summary's.)
    expect(model.calls.map((c) => c.agent).filter((a) => a !== 'planner')).toEqual([
      'front',
      'front',
      'front',
      'summarize',
    ]);
    // The reply of the turn that compressed saw the latest message, not the ones being summarised.
    const third = model.callsOf('front')[2]?.prompt ?? '';
    expect(third).toContain('gamma');
    expect(third).not.toContain('alpha');
    expect(held().summary).toBe('Earlier: alpha and beta.');
  });
});
