import type { PendingQuestionRecord, RunRecord } from '../api/agent-types.ts';
import type { AgentEvent } from '../api/map-event.ts';

/**
 * What the agents are doing on one map: runs with their current step and streamed text, and the questions
 * they wait on. Fed by the map's events (in sequence, through the map store) and seeded from the RUNS and
 * PENDING_QUESTIONS queries when the map loads.
 */
export class AgentActivity {
  runs = $state.raw<Record<string, RunRecord>>({});
  questions = $state.raw<Record<string, PendingQuestionRecord>>({});

  /** Seeds from the API after loading the map. */
  seed(runs: readonly Omit<RunRecord, 'step' | 'text'>[], questions: readonly PendingQuestionRecord[]): void {
    this.runs = Object.fromEntries(
      runs.map((run) => [run.id, { ...run, step: null, text: '', error: run.error ?? null }]),
    );
    this.questions = Object.fromEntries(questions.filter((q) => q.status === 'PENDING').map((q) => [q.requestId, q]));
  }

  /** The run active on `nodeId` (null: the map itself), if any. */
  activeRun(nodeId: string | null): RunRecord | undefined {
    return Object.values(this.runs).find(
      (run) => run.nodeId === nodeId && (run.status === 'RUNNING' || run.status === 'WAITING'),
    );
  }

  /** The last failed run on `nodeId`, to say why it stopped. */
  failedRun(nodeId: string | null): RunRecord | undefined {
    return Object.values(this.runs).findLast((run) => run.nodeId === nodeId && run.status === 'FAILED');
  }

  /** Questions waiting for the person about `nodeId` (null: the map itself). */
  questionsFor(nodeId: string | null): PendingQuestionRecord[] {
    return Object.values(this.questions).filter((q) => q.nodeId === nodeId);
  }

  /** Applies one agent event. */
  apply(event: AgentEvent): void {
    switch (event.__typename) {
      case 'RunStarted':
        this.#put({
          id: event.runId,
          nodeId: event.nodeId,
          agent: event.run.agent,
          status: 'RUNNING',
          step: null,
          text: '',
          error: null,
        });
        return;
      case 'AgentStep':
        this.#update(event.runId, (run) =>
          event.phase === 'ENTERED'
            ? { ...run, status: 'RUNNING', step: event.step, text: '' }
            : { ...run, step: run.step === event.step ? null : run.step },
        );
        return;
      case 'AgentTokens':
        this.#update(event.runId, (run) => ({ ...run, text: run.text + event.text }));
        return;
      case 'AgentQuestion': {
        const { __typename, seq, at, ...question } = event;
        this.questions = { ...this.questions, [event.requestId]: { ...question, status: 'PENDING' } };
        this.#update(event.runId, (run) => ({ ...run, status: 'WAITING', step: null }));
        return;
      }
      case 'QuestionResolved': {
        const { [event.requestId]: _resolved, ...rest } = this.questions;
        this.questions = rest;
        return;
      }
      case 'RunFinished':
        this.#update(event.runId, (run) => ({ ...run, status: 'COMPLETED', step: null }));
        this.#dropQuestionsOf(event.runId);
        return;
      case 'RunFailed':
        this.#update(event.runId, (run) => ({
          ...run,
          status: event.code === 'CANCELLED' ? 'CANCELLED' : 'FAILED',
          step: null,
          error: event.reason,
        }));
        this.#dropQuestionsOf(event.runId);
        return;
    }
  }

  #put(run: RunRecord): void {
    this.runs = { ...this.runs, [run.id]: run };
  }

  #update(runId: string, change: (run: RunRecord) => RunRecord): void {
    const run = this.runs[runId] ?? {
      id: runId,
      nodeId: null,
      agent: '',
      status: 'RUNNING',
      step: null,
      text: '',
      error: null,
    };
    this.#put(change(run));
  }

  #dropQuestionsOf(runId: string): void {
    this.questions = Object.fromEntries(Object.entries(this.questions).filter(([, q]) => q.runId !== runId));
  }
}
