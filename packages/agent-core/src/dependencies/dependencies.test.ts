import { describe, expect, it } from 'vitest';
import { checkDependencies } from './check-dependencies.ts';
import { planProposalDependencies } from './plan-proposal-dependencies.ts';

const q = (key: string, dependsOn: string[] = []) => ({ key, question: key, goal: key, dependsOn });

describe('checkDependencies', () => {
  it('should block a node whose dependency is not concluded, naming it', () => {
    const result = checkDependencies({
      dependencies: [{ id: 'd', question: '预算是多少？', status: 'RUNNING' } as never],
    });
    expect(result.ready).toBe(false);
    if (!result.ready) expect(result.reason).toContain('预算是多少？');
  });
  it('should let a node with concluded dependencies proceed', () => {
    expect(checkDependencies({ dependencies: [{ id: 'd', question: 'q', status: 'COMPLETED' } as never] }).ready).toBe(
      true,
    );
  });
});

describe('planProposalDependencies', () => {
  it('should keep valid edges between proposed sub-questions', () => {
    expect(planProposalDependencies([q('a'), q('b', ['a'])]).edges).toEqual([{ nodeId: 'b', dependsOnId: 'a' }]);
  });
  it('should drop unknown keys, self references and cycle-closing edges', () => {
    const plan = planProposalDependencies([q('a', ['b']), q('b', ['a', 'b', 'zz'])]);
    expect(plan.edges).toEqual([{ nodeId: 'a', dependsOnId: 'b' }]);
    expect(plan.dropped.map((d) => d.reason).sort()).toEqual(['cycle', 'self', 'unknown']);
    expect(plan.dropped.find((d) => d.reason === 'cycle')).toMatchObject({ from: 'b', to: 'a', path: ['b', 'a', 'b'] });
  });
});
