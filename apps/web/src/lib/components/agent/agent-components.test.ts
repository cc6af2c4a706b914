// @vitest-environment jsdom
import { type Component, flushSync, mount, tick, unmount } from 'svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OpenQuestion, RunActivity } from '../../agents/agent-activity.svelte.ts';
import { DecompositionDraft } from '../../agents/decomposition-draft.svelte.ts';
import { i18n } from '../../i18n/i18n.svelte.ts';
import AgentQuestion from './AgentQuestion.svelte';
import DecompositionReview from './DecompositionReview.svelte';
import RunningStep from './RunningStep.svelte';
import UnderstandingReview from './UnderstandingReview.svelte';

const mounted: Record<string, unknown>[] = [];

// biome-ignore lint/suspicious/noExplicitAny: each component has its own props
function render<Props extends Record<string, any>>(component: Component<Props>, props: Props) {
  const target = document.createElement('div');
  document.body.append(target);
  mounted.push(mount(component, { target, props }));
  flushSync();
  return target;
}

function type(input: HTMLInputElement | HTMLTextAreaElement, value: string) {
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true }));
  flushSync();
}

function button(target: HTMLElement, name: string) {
  const found = [...target.querySelectorAll('button')].find(
    (b) => b.textContent?.trim() === name || b.getAttribute('aria-label') === name,
  );
  if (!found) throw new Error(`no button ${name}`);
  return found;
}

async function settle() {
  for (let i = 0; i < 3; i++) await tick();
  flushSync();
}

afterEach(() => {
  for (const component of mounted.splice(0)) void unmount(component);
  document.body.innerHTML = '';
  i18n.setLanguage('en');
});

const clarify: OpenQuestion = {
  requestId: 'q1',
  runId: 'r1',
  nodeId: 'n1',
  kind: 'clarify',
  question: 'What is your budget ceiling?',
  context: { why: 'The estimate depends on it' },
  expiresAt: '2026-01-01T00:30:00.000Z',
};

describe('AgentQuestion', () => {
  it('should show the question with why it is asked, and send the typed answer', async () => {
    const onReply = vi.fn(async () => null);
    const target = render(AgentQuestion, { question: clarify, onReply });
    expect(target.textContent).toContain('What is your budget ceiling?');
    expect(target.textContent).toContain('Why it asks: The estimate depends on it');
    const answer = button(target, 'Answer');
    expect(answer.disabled).toBe(true);
    type(target.querySelector('textarea')!, '  At most 50k ');
    answer.click();
    await settle();
    expect(onReply).toHaveBeenCalledWith('At most 50k');
    expect(target.querySelector('textarea')!.value).toBe('');
  });

  it('should keep the answer and show the refusal when the server refuses it', async () => {
    const target = render(AgentQuestion, { question: clarify, onReply: async () => 'the question expired' });
    type(target.querySelector('textarea')!, 'At most 50k');
    button(target, 'Answer').click();
    await settle();
    expect(target.querySelector('[role=alert]')?.textContent?.trim()).toBe(
      'Something went wrong: the question expired',
    );
    expect(target.querySelector('textarea')!.value).toBe('At most 50k');
  });

  it('should offer Accept for a draft conclusion and show the draft', async () => {
    const onAccept = vi.fn(async () => null);
    const question = {
      ...clarify,
      kind: 'review-conclusion',
      question: 'Is this conclusion right?',
      context: { draft: { conclusion: 'Open it.' } },
    };
    const target = render(AgentQuestion, { question, onReply: async () => null, onAccept });
    expect(target.textContent).toContain('Open it.');
    button(target, 'Accept').click();
    await settle();
    expect(onAccept).toHaveBeenCalledWith(null);
  });

  it('should let a drafted conclusion be edited in place before accepting, and say what feedback does', async () => {
    const onAccept = vi.fn(async () => null);
    const question = {
      ...clarify,
      kind: 'review-conclusion',
      question: 'Is this conclusion right?',
      context: { draft: { conclusion: 'Open it.' } },
    };
    const target = render(AgentQuestion, { question, onReply: async () => null, onAccept });
    expect(button(target, 'Send feedback and redraft')).toBeTruthy();
    button(target, 'Edit before accepting').click();
    flushSync();
    type(target.querySelector<HTMLTextAreaElement>('[data-testid="draft-editor"]')!, 'Open it next to the station.');
    button(target, 'Accept my version').click();
    await settle();
    expect(onAccept).toHaveBeenCalledWith('Open it next to the station.');
  });

  it('should speak Chinese when the interface does', () => {
    i18n.setLanguage('zh');
    const target = render(AgentQuestion, { question: clarify, onReply: async () => null });
    expect(target.textContent).toContain('助手提问');
    expect(button(target, '回答')).toBeTruthy();
  });
});

describe('DecompositionReview', () => {
  const proposal = [
    { key: 'q1', question: 'How big is the market?', goal: 'Estimate demand', dependsOn: [] },
    { key: 'q2', question: 'Where should it be?', goal: 'Pick a site', dependsOn: ['q1'] },
  ];

  it('should approve the sub-questions as edited', async () => {
    const onApprove = vi.fn(async () => null);
    const target = render(DecompositionReview, {
      draft: new DecompositionDraft(proposal),
      rationale: 'Market first',
      onApprove,
      onReject: async () => null,
    });
    expect(target.textContent).toContain('Why these: Market first');
    const first = target.querySelector<HTMLTextAreaElement>('textarea[aria-label="Sub-question 1"]')!;
    expect(first.value).toBe('How big is the market?');
    type(first, 'How big is the local coffee market?');
    button(target, 'Approve and create').click();
    await settle();
    expect(onApprove).toHaveBeenCalledWith([
      { key: 'q1', question: 'How big is the local coffee market?', goal: 'Estimate demand', dependsOn: [] },
      { key: 'q2', question: 'Where should it be?', goal: 'Pick a site', dependsOn: ['q1'] },
    ]);
  });

  it('should leave out a removed sub-question and what depended on it', async () => {
    const onApprove = vi.fn(async () => null);
    const target = render(DecompositionReview, {
      draft: new DecompositionDraft(proposal),
      onApprove,
      onReject: async () => null,
    });
    button(target, 'Leave out “How big is the market?”').click();
    flushSync();
    expect(target.querySelectorAll('[data-testid="proposed-sub-question"]')).toHaveLength(1);
    button(target, 'Approve and create').click();
    await settle();
    expect(onApprove).toHaveBeenCalledWith([
      { key: 'q2', question: 'Where should it be?', goal: 'Pick a site', dependsOn: [] },
    ]);
  });

  it('should not approve an emptied sub-question, and reject with feedback', async () => {
    const onReject = vi.fn(async () => null);
    const target = render(DecompositionReview, {
      draft: new DecompositionDraft(proposal),
      onApprove: async () => null,
      onReject,
    });
    type(target.querySelector<HTMLTextAreaElement>('textarea[aria-label="Sub-question 2"]')!, '   ');
    const approve = button(target, 'Approve and create');
    expect(approve.disabled).toBe(true);
    // The reason sits next to the disabled button and describes it.
    const why = target.querySelector(`#${approve.getAttribute('aria-describedby')}`);
    expect(why?.textContent).toContain('Sub-question 2 has no question.');
    type(
      target.querySelector<HTMLTextAreaElement>('textarea[placeholder="Feedback for another proposal"]')!,
      'Think about staff too',
    );
    button(target, 'Reject').click();
    await settle();
    expect(onReject).toHaveBeenCalledWith('Think about staff too', null);
  });

  it('should number the needs as the list does, and let an added row wait for another', async () => {
    const onApprove = vi.fn(async () => null);
    const target = render(DecompositionReview, {
      draft: new DecompositionDraft(proposal),
      onApprove,
      onReject: async () => null,
    });
    const needs = (n: number) =>
      [...target.querySelectorAll('fieldset')].find(
        (set) => set.querySelector('legend')?.textContent === `What sub-question ${n} needs first`,
      )!;
    expect(needs(2).querySelector('[aria-pressed="true"]')?.textContent?.trim()).toBe('1');
    // 1 cannot need 2, which already needs 1.
    expect(button(target, 'Sub-question 1 needs 2 first').disabled).toBe(true);
    button(target, '＋ Add a sub-question').click();
    flushSync();
    type(target.querySelector<HTMLTextAreaElement>('textarea[aria-label="Sub-question 3"]')!, 'Who will staff it?');
    type(target.querySelector<HTMLTextAreaElement>('textarea[aria-label="Goal of sub-question 3"]')!, 'A rota');
    button(target, 'Sub-question 3 needs 2 first').click();
    flushSync();
    button(target, 'Approve and create').click();
    await settle();
    expect(onApprove).toHaveBeenCalledWith([
      expect.objectContaining({ key: 'q1' }),
      expect.objectContaining({ key: 'q2', dependsOn: ['q1'] }),
      { key: 'new1', question: 'Who will staff it?', goal: 'A rota', dependsOn: ['q2'] },
    ]);
  });

  it('should reject with another strategy when one is chosen', async () => {
    const onReject = vi.fn(async () => null);
    const target = render(DecompositionReview, {
      draft: new DecompositionDraft(proposal),
      onApprove: async () => null,
      onReject,
    });
    const select = target.querySelector<HTMLSelectElement>('select[aria-label="Strategy for the next proposal"]')!;
    expect([...select.options].map((o) => o.value)).toEqual([
      '',
      'SEQUENTIAL',
      'PARALLEL',
      'HIERARCHICAL',
      'EXPLORATORY',
    ]);
    select.value = 'PARALLEL';
    select.dispatchEvent(new Event('change', { bubbles: true }));
    flushSync();
    button(target, 'Reject').click();
    await settle();
    expect(onReject).toHaveBeenCalledWith('', 'PARALLEL');
  });
});

describe('RunningStep', () => {
  const run: RunActivity = {
    id: 'r1',
    nodeId: 'n1',
    agent: 'process-node',
    status: 'RUNNING',
    step: 'draftConclusion',
    branches: [],
    lastStep: 'draftConclusion',
    text: 'About 3,000',
    error: null,
    startedAt: null,
    finishedAt: null,
    tokens: null,
    waitingFor: [],
  };

  it('should say which step runs, stream its text and offer to cancel', () => {
    const onCancel = vi.fn();
    const target = render(RunningStep, { run, onCancel });
    expect(target.textContent).toContain('The agent is drafting a conclusion…');
    expect(target.querySelector('[data-testid="streaming-text"]')?.textContent).toContain('About 3,000');
    button(target, 'Cancel run').click();
    expect(onCancel).toHaveBeenCalled();
  });

  it('should say the run waits for the person', () => {
    const target = render(RunningStep, { run: { ...run, status: 'WAITING', step: null }, onCancel: () => {} });
    expect(target.textContent).toContain('Waiting for your answer');
    expect(target.querySelector('[data-testid="streaming-text"]')).toBeNull();
  });
});

describe('UnderstandingReview', () => {
  const question: OpenQuestion = {
    requestId: 'q1',
    runId: 'r1',
    nodeId: null,
    kind: 'confirm-understanding',
    question: 'Is this right?',
    context: {
      understanding: { title: 'A café', problem: 'Should I open a café?', goal: 'Decide', constraints: ['Under 50k'] },
    },
    expiresAt: '2026-01-01T00:30:00.000Z',
  };

  it('should show the restated problem and confirm or send a correction', async () => {
    const onConfirm = vi.fn(async () => null);
    const onCorrect = vi.fn(async () => null);
    const target = render(UnderstandingReview, { question, onConfirm, onCorrect });
    expect(target.textContent).toContain('Should I open a café?');
    expect(target.textContent).toContain('Under 50k');
    type(target.querySelector<HTMLInputElement>('#understanding-correction')!, 'A second café');
    button(target, 'Correct it').click();
    await settle();
    expect(onCorrect).toHaveBeenCalledWith('A second café');
    button(target, 'Yes, that is it').click();
    await settle();
    expect(onConfirm).toHaveBeenCalled();
    expect(target.querySelector('[data-testid="understanding-exchange"]')).toBeNull();
  });

  it('should show the earlier restatements and the person’s corrections above the current one', () => {
    const target = render(UnderstandingReview, {
      question: {
        ...question,
        context: {
          ...(question.context as Record<string, unknown>),
          history: [{ understanding: { problem: 'Open a café?', goal: 'Decide' }, correction: 'A second café' }],
        },
      },
      onConfirm: vi.fn(async () => null),
      onCorrect: vi.fn(async () => null),
    });
    const exchange = target.querySelector('[data-testid="understanding-exchange"]')!;
    expect(exchange.querySelector('[data-testid="earlier-understanding"]')?.textContent).toContain('Open a café?');
    expect(exchange.querySelector('[data-testid="earlier-correction"]')?.textContent).toContain('A second café');
    expect(target.querySelector('[data-testid="understood-problem"]')?.textContent).toBe('Should I open a café?');
  });
});
