import { describe, expect, it } from 'vitest';
import { applyCorrection, editOf } from './apply-correction.ts';

const en = { title: 'Second café', problem: 'Should we open a second café?', goal: 'Decide by June', constraints: [] };
const zh = { title: '第二家店', problem: '要不要开第二家店？', goal: '六月前决定', constraints: ['预算五万'] };

describe('applyCorrection', () => {
  it('should set the goal from "the goal is X" and leave every other field as it was', () => {
    expect(applyCorrection(en, 'The goal is to decide by May.', false)).toEqual({ ...en, goal: 'to decide by May' });
    expect(applyCorrection(en, 'Actually, my goal is a yes or no', false).goal).toBe('a yes or no');
  });

  it('should add a constraint, and remove one by its words', () => {
    const added = applyCorrection(en, 'Add a constraint: budget under 50k', false);
    expect(added.constraints).toEqual(['budget under 50k']);
    expect(applyCorrection(added, 'Remove the constraint budget under 50k', false).constraints).toEqual([]);
    expect(applyCorrection(added, 'add constraint Budget under 50k', false).constraints).toEqual(['budget under 50k']);
  });

  it('should replace the problem from "actually the problem is Z" and the title from "the title is T"', () => {
    const fixed = applyCorrection(en, 'Actually the problem is where to open it? The title is Café #2', false);
    expect(fixed).toEqual({ ...en, problem: 'where to open it?', title: 'Café #2' });
  });

  it('should apply several sentences, each to its own field', () => {
    const fixed = applyCorrection(
      en,
      'The goal is pick a site. Add constraint: near a station. It must open in spring',
      false,
    );
    expect(fixed.goal).toBe('pick a site');
    expect(fixed.constraints).toEqual(['near a station']);
    // A sentence that names no field is kept in the person's words, with the problem.
    expect(fixed.problem).toBe('Should we open a second café? It must open in spring.');
  });

  it('should understand Chinese corrections to the goal, the constraints, the problem and the title', () => {
    expect(applyCorrection(zh, '目标是五月前决定', true).goal).toBe('五月前决定');
    expect(applyCorrection(zh, '加一个约束：不贷款', true).constraints).toEqual(['预算五万', '不贷款']);
    expect(applyCorrection(zh, '去掉约束预算五万', true).constraints).toEqual([]);
    expect(applyCorrection(zh, '问题其实是开在哪里？', true).problem).toBe('开在哪里？');
    expect(applyCorrection(zh, '标题改为选址', true).title).toBe('选址');
    expect(applyCorrection(zh, '目标是选好地址。再加一条约束：靠近地铁。店面要朝南', true)).toEqual({
      title: '第二家店',
      problem: '要不要开第二家店？店面要朝南。',
      goal: '选好地址',
      constraints: ['预算五万', '靠近地铁'],
    });
  });

  it('should read a sentence that names no field as no edit', () => {
    expect(editOf('it is for video editing')).toBeNull();
    expect(editOf('目标')).toBeNull();
  });
});
