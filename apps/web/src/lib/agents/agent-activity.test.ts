import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../api/results.ts';
import { AgentActivity, type SeedQuestion, type SeedRun } from './agent-activity.svelte.ts';
import { DecompositionDraft } from './decomposition-draft.svelte.ts';
import { proposalOf, ReviewDrafts } from './review-drafts.svelte.ts';

const base = { mapId: 'm1', at: '', seq: 1 };

/** An agent event without its place in the log (the tests add one). */
type Unsequenced<E = AgentEvent> = E extends AgentEvent ? Omit<E, keyof typeof base> : never;

function play(activity: AgentActivity, events: Unsequenced[]) {
  for (const event of events) activity.apply({ ...base, ...event });
}

describe('AgentActivity', () => {
  it('should follow a run through its steps and streamed text', () => {
    const activity = new AgentActivity();
    play(activity, [
      {
        __typename: 'RunStarted',
        runId: 'r1',
        nodeId: 'n1',
        run: { agent: 'process-node', status: 'RUNNING', forkedFromStep: null },
      },
      {
        __typename: 'AgentStep',
        runId: 'r1',
        nodeId: 'n1',
        graph: 'process-node',
        branch: null,
        step: 'draftConclusion',
        phase: 'ENTERED',
        outcome: null,
      },
      { __typename: 'AgentTokens', runId: 'r1', nodeId: 'n1', text: 'About 3,000 ' },
      { __typename: 'AgentTokens', runId: 'r1', nodeId: 'n1', text: 'cups a day' },
    ]);
    expect(activity.activeRun('n1')).toMatchObject({
      status: 'RUNNING',
      step: 'draftConclusion',
      text: 'About 3,000 cups a day',
    });
    play(activity, [
      {
        __typename: 'AgentStep',
        runId: 'r1',
        nodeId: 'n1',
        graph: 'process-node',
        branch: null,
        step: 'draftConclusion',
        phase: 'LEFT',
        outcome: 'done',
      },
    ]);
    expect(activity.activeRun('n1')?.step).toBeNull();
    play(activity, [
      {
        __typename: 'RunFinished',
        runId: 'r1',
        nodeId: 'n1',
        run: { promptTokens: 0, completionTokens: 0, tokensEstimated: false },
      },
    ]);
    expect(activity.activeRun('n1')).toBeUndefined();
    // A run view reads the path again on each of the run's events (the started, both steps, the finish), not on text.
    expect(activity.runEventsSeen).toEqual({ r1: 4 });
  });

  it('should keep a run’s own text apart from what it streams to other nodes (a divergent session’s tasks)', () => {
    const activity = new AgentActivity();
    play(activity, [
      {
        __typename: 'RunStarted',
        runId: 'r1',
        nodeId: 'root',
        run: { agent: 'divergent', status: 'RUNNING', forkedFromStep: null },
      },
      { __typename: 'AgentTokens', runId: 'r1', nodeId: 'root', text: 'Planning' },
      { __typename: 'AgentTokens', runId: 'r1', nodeId: 't1', text: 'Rents ' },
      { __typename: 'AgentTokens', runId: 'r1', nodeId: 't2', text: 'Footfall ' },
      { __typename: 'AgentTokens', runId: 'r1', nodeId: null, text: '…' },
    ]);
    expect(activity.activeRun('root')?.text).toBe('Planning…');
  });

  it('should keep a step of parallel branches current until the last of them leaves (a divergent level)', () => {
    const activity = new AgentActivity();
    const step = (branch: string | null, stepName: string, phase: 'ENTERED' | 'LEFT') =>
      ({
        __typename: 'AgentStep',
        runId: 'd1',
        nodeId: 'n1',
        graph: 'divergent',
        step: stepName,
        branch,
        phase,
        outcome: phase === 'LEFT' ? 'done' : null,
      }) as const;
    play(activity, [
      {
        __typename: 'RunStarted',
        runId: 'd1',
        nodeId: 'n1',
        run: { agent: 'divergent', status: 'RUNNING', forkedFromStep: null },
      },
      step('L1.T1', 'runTask', 'ENTERED'),
      step('L1.T2', 'runTask', 'ENTERED'),
      step('L1.T3', 'runTask', 'ENTERED'),
      step('L1.T2', 'runTask', 'LEFT'),
      step('L1.T1', 'runTask', 'LEFT'),
    ]);
    expect(activity.activeRun('n1')).toMatchObject({ step: 'runTask', branches: ['L1.T3'] });
    play(activity, [step('L1.T3', 'runTask', 'LEFT')]);
    expect(activity.activeRun('n1')).toMatchObject({ step: null, branches: [], lastStep: 'runTask' });
    play(activity, [step(null, 'closeLevel', 'ENTERED')]);
    expect(activity.activeRun('n1')).toMatchObject({ step: 'closeLevel', branches: [] });
  });

  it('should hold a question until it is resolved, and mark the run as waiting', () => {
    const activity = new AgentActivity();
    play(activity, [
      {
        __typename: 'RunStarted',
        runId: 'r1',
        nodeId: 'n1',
        run: { agent: 'process-node', status: 'RUNNING', forkedFromStep: null },
      },
      {
        __typename: 'AgentQuestion',
        requestId: 'q1',
        runId: 'r1',
        nodeId: 'n1',
        kind: 'clarify',
        question: 'Budget?',
        context: { why: 'needed' },
        expiresAt: '',
      },
    ]);
    expect(activity.questionsFor('n1').map((q) => q.question)).toEqual(['Budget?']);
    expect(activity.activeRun('n1')?.status).toBe('WAITING');
    play(activity, [
      { __typename: 'QuestionResolved', requestId: 'q1', runId: 'r1', nodeId: 'n1', status: 'ANSWERED' },
    ]);
    expect(activity.questionsFor('n1')).toEqual([]);
  });

  it('should keep an expired review waiting for the person, marked expired, with its run paused', () => {
    const activity = new AgentActivity();
    play(activity, [
      {
        __typename: 'RunStarted',
        runId: 'r1',
        nodeId: 'n1',
        run: { agent: 'process-node', status: 'RUNNING', forkedFromStep: null },
      },
      {
        __typename: 'AgentQuestion',
        requestId: 'q1',
        runId: 'r1',
        nodeId: 'n1',
        kind: 'review-conclusion',
        question: 'Is this right?',
        context: {},
        expiresAt: '',
      },
      { __typename: 'QuestionResolved', requestId: 'q1', runId: 'r1', nodeId: 'n1', status: 'EXPIRED' },
    ]);
    expect(activity.questionsFor('n1')).toMatchObject([{ requestId: 'q1', expired: true }]);
    expect(activity.runsFor('n1')[0]?.status).toBe('PAUSED');
    play(activity, [
      { __typename: 'QuestionResolved', requestId: 'q1', runId: 'r1', nodeId: 'n1', status: 'ANSWERED' },
    ]);
    expect(activity.questionsFor('n1')).toEqual([]);
  });

  it('should say why a run failed and drop its questions; a cancelled run is not a failure', () => {
    const activity = new AgentActivity();
    play(activity, [
      {
        __typename: 'RunStarted',
        runId: 'r1',
        nodeId: 'n1',
        run: { agent: 'process-node', status: 'RUNNING', forkedFromStep: null },
      },
      {
        __typename: 'AgentQuestion',
        requestId: 'q1',
        runId: 'r1',
        nodeId: 'n1',
        kind: 'clarify',
        question: 'Budget?',
        context: {},
        expiresAt: '',
      },
      {
        __typename: 'RunFailed',
        runId: 'r1',
        nodeId: 'n1',
        code: 'MODEL_OUTPUT_INVALID',
        reason: 'the model answered nonsense',
        run: { raw: null },
      },
      {
        __typename: 'RunStarted',
        runId: 'r2',
        nodeId: 'n2',
        run: { agent: 'process-node', status: 'RUNNING', forkedFromStep: null },
      },
      {
        __typename: 'RunFailed',
        runId: 'r2',
        nodeId: 'n2',
        code: 'CANCELLED',
        reason: 'the run was cancelled',
        run: { raw: null },
      },
    ]);
    expect(activity.failedRun('n1')?.error).toBe('the model answered nonsense');
    expect(activity.questionsFor('n1')).toEqual([]);
    expect(activity.failedRun('n2')).toBeUndefined();
    expect(activity.runs.r2?.status).toBe('CANCELLED');
  });

  it('should keep a node’s past runs, newest first, with when they ran, what they did last and their tokens', () => {
    const activity = new AgentActivity();
    activity.seed(
      [
        {
          id: 'old',
          nodeId: 'n1',
          agent: 'process-node',
          status: 'FAILED',
          error: 'the model answered nonsense',
          createdAt: '2026-01-01T10:00:00.000Z',
          finishedAt: '2026-01-01T10:00:05.000Z',
          promptTokens: 100,
          completionTokens: 20,
          tokensEstimated: false,
        },
      ],
      [],
    );
    for (const event of [
      {
        __typename: 'RunStarted',
        runId: 'r2',
        nodeId: 'n1',
        run: { agent: 'process-node', status: 'RUNNING', forkedFromStep: null },
      },
      {
        __typename: 'AgentStep',
        runId: 'r2',
        nodeId: 'n1',
        graph: 'process-node',
        step: 'createChildren',
        phase: 'ENTERED',
        outcome: null,
      },
      {
        __typename: 'RunFinished',
        runId: 'r2',
        nodeId: 'n1',
        run: { promptTokens: 7, completionTokens: 3, tokensEstimated: true },
      },
    ] as Unsequenced[])
      activity.apply({ ...base, at: '2026-01-02T10:00:00.000Z', ...event });
    expect(
      activity.runsFor('n1').map((r) => [r.id, r.status, r.lastStep, r.tokens, r.tokensEstimated, r.finishedAt]),
    ).toEqual([
      ['r2', 'COMPLETED', 'createChildren', 10, true, '2026-01-02T10:00:00.000Z'],
      ['old', 'FAILED', null, 120, false, '2026-01-01T10:00:05.000Z'],
    ]);
  });

  it('should seed from the API, keeping only pending questions', () => {
    const activity = new AgentActivity();
    activity.seed(
      [{ id: 'r1', nodeId: null, agent: 'understand-problem', status: 'WAITING', error: null }],
      [
        {
          requestId: 'q1',
          runId: 'r1',
          nodeId: null,
          kind: 'confirm-understanding',
          question: 'Right?',
          context: {},
          status: 'PENDING',
          expiresAt: '',
        },
        {
          requestId: 'q0',
          runId: 'r0',
          nodeId: null,
          kind: 'clarify',
          question: 'Old',
          context: {},
          status: 'ANSWERED',
          expiresAt: '',
        },
      ],
    );
    expect(activity.activeRun(null)?.agent).toBe('understand-problem');
    expect(activity.questionsFor(null).map((q) => q.requestId)).toEqual(['q1']);
  });

  it('should catch up with a question its first read missed, under what arrived while the catch-up read was out', async () => {
    const activity = new AgentActivity();
    const question = (requestId: string) => ({
      requestId,
      runId: 'r1',
      nodeId: null,
      kind: 'confirm-understanding',
      question: 'Is this your problem?',
      context: {},
      status: 'PENDING' as const,
      expiresAt: '',
    });
    const restating = {
      __typename: 'AgentStep',
      runId: 'r1',
      nodeId: null,
      graph: 'understand-problem',
      branch: null,
      step: 'restateProblem',
      phase: 'ENTERED',
      outcome: null,
    } as const;
    // The first reads were answered before the map's: the run was still running, its question not asked yet.
    const running = { id: 'r1', nodeId: null, agent: 'understand-problem', status: 'RUNNING' as const, error: null };
    activity.seed([running], []);
    play(activity, [restating]);
    let answer: (value: [SeedRun[], SeedQuestion[]] | null) => void = () => {};
    const caughtUp = activity.catchUp(() => new Promise((resolve) => (answer = resolve)));
    // While the catch-up read is out, the person answers the question elsewhere and the run asks a second one.
    play(activity, [
      { __typename: 'QuestionResolved', runId: 'r1', nodeId: null, requestId: 'q1', status: 'ANSWERED' },
      {
        __typename: 'AgentQuestion',
        ...question('q2'),
      },
    ] as Unsequenced[]);
    answer([[{ ...running, status: 'WAITING' }], [question('q1')]]);
    await caughtUp;
    expect(activity.questionsFor(null).map((q) => q.requestId)).toEqual(['q2']);
    expect(activity.activeRun(null)?.status).toBe('WAITING');

    // A catch-up read that finds the run as the page already follows it keeps what the page saw live.
    const again = new AgentActivity();
    again.seed([running], []);
    play(again, [restating, { __typename: 'AgentTokens', runId: 'r1', nodeId: null, text: 'You want' }]);
    await again.catchUp(async () => [[running], [question('q1')]]);
    expect(again.activeRun(null)).toMatchObject({ step: 'restateProblem', text: 'You want' });
    expect(again.questionsFor(null).map((q) => q.requestId)).toEqual(['q1']);
  });
});

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
