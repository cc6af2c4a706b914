import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../api/map-event.ts';
import { AgentActivity } from './agent-activity.svelte.ts';
import { DecompositionDraft } from './decomposition-draft.svelte.ts';
import { stepLabel } from './step-label.ts';

const base = { mapId: 'm1', at: '', seq: 1 };

function play(activity: AgentActivity, events: Record<string, unknown>[]) {
  for (const event of events) activity.apply({ ...base, ...event } as AgentEvent);
}

describe('AgentActivity', () => {
  it('should follow a run through its steps and streamed text', () => {
    const activity = new AgentActivity();
    play(activity, [
      { __typename: 'RunStarted', runId: 'r1', nodeId: 'n1', run: { agent: 'process-node', status: 'RUNNING' } },
      {
        __typename: 'AgentStep',
        runId: 'r1',
        nodeId: 'n1',
        graph: 'process-node',
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
        step: 'draftConclusion',
        phase: 'LEFT',
        outcome: 'done',
      },
    ]);
    expect(activity.activeRun('n1')?.step).toBeNull();
    play(activity, [{ __typename: 'RunFinished', runId: 'r1', nodeId: 'n1' }]);
    expect(activity.activeRun('n1')).toBeUndefined();
  });

  it('should hold a question until it is resolved, and mark the run as waiting', () => {
    const activity = new AgentActivity();
    play(activity, [
      { __typename: 'RunStarted', runId: 'r1', nodeId: 'n1', run: { agent: 'process-node', status: 'RUNNING' } },
      {
        __typename: 'AgentQuestion',
        requestId: 'q1',
        runId: 'r1',
        nodeId: 'n1',
        kind: 'clarify',
        question: 'Budget?',
        context: { why: 'needed' },
      },
    ]);
    expect(activity.questionsFor('n1').map((q) => q.question)).toEqual(['Budget?']);
    expect(activity.activeRun('n1')?.status).toBe('WAITING');
    play(activity, [
      { __typename: 'QuestionResolved', requestId: 'q1', runId: 'r1', nodeId: 'n1', status: 'ANSWERED' },
    ]);
    expect(activity.questionsFor('n1')).toEqual([]);
  });

  it('should say why a run failed and drop its questions; a cancelled run is not a failure', () => {
    const activity = new AgentActivity();
    play(activity, [
      { __typename: 'RunStarted', runId: 'r1', nodeId: 'n1', run: { agent: 'process-node', status: 'RUNNING' } },
      {
        __typename: 'AgentQuestion',
        requestId: 'q1',
        runId: 'r1',
        nodeId: 'n1',
        kind: 'clarify',
        question: 'Budget?',
        context: {},
      },
      {
        __typename: 'RunFailed',
        runId: 'r1',
        nodeId: 'n1',
        code: 'MODEL_OUTPUT_INVALID',
        reason: 'the model answered nonsense',
      },
      { __typename: 'RunStarted', runId: 'r2', nodeId: 'n2', run: { agent: 'process-node', status: 'RUNNING' } },
      { __typename: 'RunFailed', runId: 'r2', nodeId: 'n2', code: 'CANCELLED', reason: 'the run was cancelled' },
    ]);
    expect(activity.failedRun('n1')?.error).toBe('the model answered nonsense');
    expect(activity.questionsFor('n1')).toEqual([]);
    expect(activity.failedRun('n2')).toBeUndefined();
    expect(activity.runs.r2?.status).toBe('CANCELLED');
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
        },
        {
          requestId: 'q0',
          runId: 'r0',
          nodeId: null,
          kind: 'clarify',
          question: 'Old',
          context: {},
          status: 'ANSWERED',
        },
      ],
    );
    expect(activity.activeRun(null)?.agent).toBe('understand-problem');
    expect(activity.questionsFor(null).map((q) => q.requestId)).toEqual(['q1']);
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

describe('stepLabel', () => {
  it('should name known steps in both languages and spell out unknown ones', () => {
    expect(stepLabel('proposeSubQuestions', 'en')).toBe('proposing sub-questions');
    expect(stepLabel('proposeSubQuestions', 'zh')).toBe('提出子问题');
    expect(stepLabel('mergeSummaries', 'en')).toBe('merge summaries');
  });
});
