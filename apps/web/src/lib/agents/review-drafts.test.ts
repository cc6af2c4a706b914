import { describe, expect, it } from 'vitest';
import { DecompositionDraft } from './decomposition-draft.svelte.ts';
import { proposalOf, ReviewDrafts } from './review-drafts.svelte.ts';

describe('DecompositionDraft', () => {
  const proposal = [
    { key: 'q1', question: 'How big is the market?', goal: 'Estimate demand', dependsOn: [] },
    { key: 'q2', question: 'Where should it be?', goal: 'Pick a site', dependsOn: ['q1'] },
  ];

  it('should hand back the proposal untouched when approved as is', () => {
    const draft = new DecompositionDraft(proposal);
    expect(draft.toInput()).toEqual(proposal);
    expect(draft.edited(proposal)).toBe(false);
  });

  it('should keep edits, drop dependencies on removed sub-questions and add new ones with fresh keys', () => {
    const draft = new DecompositionDraft(proposal);
    draft.items[1]!.question = '  Where exactly?  ';
    draft.remove('q1');
    draft.add();
    draft.items[1]!.question = 'Who are the competitors?';
    draft.items[1]!.goal = 'List them';
    expect(draft.toInput()).toEqual([
      { key: 'q2', question: 'Where exactly?', goal: 'Pick a site', dependsOn: [] },
      { key: 'new1', question: 'Who are the competitors?', goal: 'List them', dependsOn: [] },
    ]);
    expect(draft.edited(proposal)).toBe(true);
  });

  it('should not be valid with an empty question or goal, or with nothing left', () => {
    const draft = new DecompositionDraft(proposal);
    draft.add();
    expect(draft.valid).toBe(false);
    const empty = new DecompositionDraft(proposal);
    empty.remove('q1');
    empty.remove('q2');
    expect(empty.valid).toBe(false);
  });
});

describe('DecompositionDraft dependencies and reasons', () => {
  const proposal = [
    { key: 'q1', question: 'How big is the market?', goal: 'Estimate demand', dependsOn: [] },
    { key: 'q2', question: 'Where should it be?', goal: 'Pick a site', dependsOn: ['q1'] },
  ];

  it('should number sub-questions by their place, so "needs" hints follow removals', () => {
    const draft = new DecompositionDraft([{ key: 'q0', question: 'First', goal: 'g', dependsOn: [] }, ...proposal]);
    expect(draft.numberOf('q1')).toBe(2);
    draft.remove('q0');
    expect(draft.numberOf('q1')).toBe(1);
    expect(draft.numberOf('q0')).toBeNull();
  });

  it('should let an added sub-question wait for others, and refuse a dependency that closes a cycle', () => {
    const draft = new DecompositionDraft(proposal);
    const added = draft.add();
    expect(draft.toggleDependency(added, 'q2')).toBe(true);
    expect(draft.items[2]!.dependsOn).toEqual(['q2']);
    expect(draft.canDepend('q1', added)).toBe(false);
    expect(draft.toggleDependency('q1', added)).toBe(false);
    expect(draft.toggleDependency(added, added)).toBe(false);
    expect(draft.toggleDependency(added, 'q2')).toBe(true);
    expect(draft.items[2]!.dependsOn).toEqual([]);
  });

  it('should say why it cannot be approved', () => {
    const draft = new DecompositionDraft(proposal);
    draft.add();
    draft.items[0]!.goal = ' ';
    expect(draft.problems).toEqual([
      { kind: 'noGoal', n: 1 },
      { kind: 'noQuestion', n: 3 },
      { kind: 'noGoal', n: 3 },
    ]);
    const empty = new DecompositionDraft([]);
    expect(empty.problems).toEqual([{ kind: 'empty' }]);
  });
});

describe('ReviewDrafts', () => {
  const question = {
    requestId: 'r1',
    kind: 'review-decomposition',
    context: { proposal: { rationale: 'why', subQuestions: [{ key: 'q1', question: 'Q', goal: 'G', dependsOn: [] }] } },
  };

  it('should hand the panel and the canvas the same draft, and forget it once the question is gone', () => {
    const drafts = new ReviewDrafts();
    drafts.sync([question, { requestId: 'c1', kind: 'clarify', context: {} }]);
    expect(drafts.get('c1')).toBeUndefined();
    drafts.get('r1')!.items[0]!.question = 'Edited';
    drafts.sync([question]);
    expect(drafts.get('r1')!.items[0]!.question).toBe('Edited');
    expect(proposalOf(question).rationale).toBe('why');
    drafts.sync([]);
    expect(drafts.get('r1')).toBeUndefined();
  });
});
