import { describe, expect, it } from 'vitest';
import type { MapEvent, PendingQuestion } from '../api/results.ts';
import { Inbox, type InboxSource } from './inbox.svelte.ts';

const question = (requestId: string, mapId: string, extra: Partial<PendingQuestion> = {}): PendingQuestion => ({
  requestId,
  runId: `run-${requestId}`,
  mapId,
  nodeId: 'n1',
  kind: 'clarify',
  question: `Question ${requestId}?`,
  context: {},
  status: 'PENDING',
  answerable: true,
  createdAt: '',
  expiresAt: '',
  ...extra,
});

function source(initial: PendingQuestion[]) {
  const state = { questions: initial, titleLoads: 0 };
  const api: InboxSource = {
    questions: async () => state.questions,
    maps: async () => {
      state.titleLoads += 1;
      return {
        m1: { title: 'Café', problem: 'Open one by the station?', updatedAt: '2026-11-01T10:00:00.000Z' },
        m2: { title: 'Barista', problem: null, updatedAt: '2026-11-02T10:00:00.000Z' },
      };
    },
  };
  return { state, api };
}

const event = (e: Record<string, unknown>) => ({ mapId: 'm1', seq: 1, at: '2026-01-01T00:00:00Z', ...e }) as MapEvent;

describe('Inbox', () => {
  it('should count the questions of every map and name their maps', async () => {
    const { api } = source([question('a', 'm1'), question('b', 'm2'), question('c', 'm2')]);
    const inbox = new Inbox(api);
    await inbox.refresh();
    expect(inbox.count).toBe(3);
    expect(inbox.on('m2').map((q) => q.requestId)).toEqual(['b', 'c']);
    expect(inbox.titles.m1).toBe('Café');
    expect(inbox.about).toEqual({
      m1: { problem: 'Open one by the station?', updatedAt: '2026-11-01T10:00:00.000Z' },
      m2: { problem: null, updatedAt: '2026-11-02T10:00:00.000Z' },
    });
  });

  it('should call a question new only when it arrives after the first load', async () => {
    const { state, api } = source([question('a', 'm1')]);
    const inbox = new Inbox(api);
    const arrived: string[] = [];
    inbox.listen((q, title) => arrived.push(`${q.requestId}@${title}`));
    await inbox.refresh();
    expect(arrived).toEqual([]);
    state.questions = [question('a', 'm1'), question('b', 'm2')];
    await inbox.refresh();
    expect(arrived).toEqual(['b@Barista']);
    expect(state.titleLoads).toBe(1);
  });

  it('should follow the open map’s events: asked, resolved, and dropped with their run', async () => {
    const { api } = source([]);
    const inbox = new Inbox(api);
    await inbox.refresh();
    const arrived: string[] = [];
    inbox.listen((q) => arrived.push(q.requestId));
    const asked = {
      __typename: 'AgentQuestion',
      requestId: 'q1',
      runId: 'r1',
      nodeId: 'n1',
      kind: 'clarify',
      question: 'Budget?',
      context: {},
      expiresAt: '',
    };
    inbox.apply(event(asked));
    inbox.apply(event(asked));
    expect(arrived).toEqual(['q1']);
    expect(inbox.count).toBe(1);
    inbox.apply(
      event({ __typename: 'QuestionResolved', requestId: 'q1', runId: 'r1', nodeId: 'n1', status: 'ANSWERED' }),
    );
    expect(inbox.count).toBe(0);
    inbox.apply(event({ ...asked, requestId: 'q2' }));
    inbox.apply(
      event({ __typename: 'RunFailed', runId: 'r1', nodeId: 'n1', code: 'CANCELLED', reason: '', run: { raw: null } }),
    );
    expect(inbox.count).toBe(0);
  });
});
