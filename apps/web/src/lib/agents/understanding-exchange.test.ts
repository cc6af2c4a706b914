import { describe, expect, it } from 'vitest';
import { understandingExchange } from './understanding-exchange.ts';

describe('understandingExchange', () => {
  it('should read the current restatement and each earlier one with the person’s correction, oldest first', () => {
    const exchange = understandingExchange({
      understanding: {
        title: '第二家店',
        problem: '要不要在第一家店旁边开第二家？',
        goal: '六月前决定',
        constraints: ['预算 50 万'],
      },
      round: 3,
      history: [
        { understanding: { problem: 'Open a café?' }, correction: 'It is a second café' },
        { understanding: { problem: 'Open a second café?' }, correction: '在第一家店旁边' },
      ],
    });
    expect(exchange.current).toMatchObject({ problem: '要不要在第一家店旁边开第二家？', constraints: ['预算 50 万'] });
    expect(exchange.earlier.map((r) => [r.understanding.problem, r.correction])).toEqual([
      ['Open a café?', 'It is a second café'],
      ['Open a second café?', '在第一家店旁边'],
    ]);
  });

  it('should leave out what is malformed and cope with a context without history', () => {
    expect(understandingExchange(null)).toEqual({ current: {}, earlier: [] });
    const exchange = understandingExchange({
      understanding: { problem: 42, constraints: ['ok', 7] },
      history: [{ understanding: {} }, 'junk', { understanding: { goal: 'x' }, correction: 'fix' }],
    });
    expect(exchange.current).toEqual({ title: undefined, problem: undefined, goal: undefined, constraints: ['ok'] });
    expect(exchange.earlier).toEqual([
      { understanding: { title: undefined, problem: undefined, goal: 'x', constraints: undefined }, correction: 'fix' },
    ]);
  });
});
