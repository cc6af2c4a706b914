import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../api/results.ts';
import { AgentActivity, type SeedQuestion, type SeedRun } from './agent-activity.svelte.ts';

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
