import { ACTIVE_RUN_STATUSES, isGateQuestion } from '@thinkingmap/db/enums';
import type { AgentEvent, AgentRun, PendingQuestion } from '../api/results.ts';

/** A run as the workspace follows it: the API's run plus the step running now and the text it streamed. */
export type RunActivity = Pick<AgentRun, 'id' | 'nodeId' | 'agent' | 'status' | 'error'> & {
  /** The graph step running now (`proposeSubQuestions`, …), null between steps. */
  step: string | null;
  /**
   * The parallel branches of `step` still running (a divergent level's task keys): the step stays current until
   * the last of them leaves. Empty for a step that runs once at a time.
   */
  branches: string[];
  /** The last step the run entered (seen while the page was open), to say what a finished run did. */
  lastStep: string | null;
  /** Text streamed by the current step so far. */
  text: string;
  /** When it started and ended (ISO 8601), when known. */
  startedAt: string | null;
  finishedAt: string | null;
  /** Model tokens it spent, when known. */
  tokens: number | null;
  /** Some of `tokens` were counted locally (the endpoint reported no usage): shown with ≈. */
  tokensEstimated?: boolean;
  /** While WAITING_FOR_DEPENDENCIES: the questions it waits for (it starts by itself once they conclude). */
  waitingFor: string[];
  /** The step of an earlier run this one was forked from (see forkRun), null for a run started afresh. */
  forkedFromStep?: string | null;
};

/** A run as the RUNS query reports it, to seed from. */
export type SeedRun = Pick<AgentRun, 'id' | 'nodeId' | 'agent' | 'status' | 'error'> &
  Partial<
    Pick<
      AgentRun,
      | 'createdAt'
      | 'finishedAt'
      | 'promptTokens'
      | 'completionTokens'
      | 'tokensEstimated'
      | 'waitingFor'
      | 'forkedFromStep'
    >
  >;

/** A question as PENDING_QUESTIONS returns it (seeding keeps those still answerable). */
export type SeedQuestion = OpenQuestion &
  Pick<PendingQuestion, 'status'> &
  Partial<Pick<PendingQuestion, 'answerable'>>;

/**
 * A question the person has yet to answer, from PENDING_QUESTIONS or an AgentQuestion event. `expired` marks a
 * gate (a review, a confirmation) whose time ran out: it still waits for the person, its run PAUSED.
 */
export type OpenQuestion = Pick<
  PendingQuestion,
  'requestId' | 'runId' | 'nodeId' | 'kind' | 'question' | 'context' | 'expiresAt'
> & { expired?: boolean };

/**
 * What the agents are doing on one map: runs with their current step and streamed text, and the questions
 * they wait on. Fed by the map's events (in sequence, through the map store) and seeded from the RUNS and
 * PENDING_QUESTIONS queries when the map loads.
 */
export class AgentActivity {
  runs = $state.raw<Record<string, RunActivity>>({});
  questions = $state.raw<Record<string, OpenQuestion>>({});
  /** How many decisions were recorded on each node while the page was open (a decisions list reloads on it). */
  decisionsSeen = $state.raw<Record<string, number>>({});
  /** How many events of each run arrived while the page was open (a run view reads its path again on it). */
  runEventsSeen = $state.raw<Record<string, number>>({});

  /** Events applied while a {@link catchUp}'s read is on its way, to play again on top of its answer. */
  readonly #sinceRead = new Set<AgentEvent[]>();

  /**
   * Seeds from the API after loading the map (RUNS and PENDING_QUESTIONS). A run still in the status it had here
   * keeps what the page saw of it live (its step and streamed text), which the API does not return.
   */
  seed(runs: readonly SeedRun[], questions: readonly SeedQuestion[]): void {
    const before = this.runs;
    this.runs = Object.fromEntries(
      runs.map(
        ({
          id,
          nodeId,
          agent,
          status,
          error,
          createdAt,
          finishedAt,
          promptTokens,
          completionTokens,
          tokensEstimated,
          waitingFor,
          forkedFromStep,
        }) => [
          id,
          {
            id,
            nodeId,
            agent,
            status,
            error,
            ...liveOf(before[id], status),
            startedAt: createdAt ?? null,
            finishedAt: finishedAt ?? null,
            tokens: promptTokens === undefined ? null : promptTokens + (completionTokens ?? 0),
            tokensEstimated: tokensEstimated ?? false,
            waitingFor: (waitingFor ?? []).map((node) => node.question),
            forkedFromStep: forkedFromStep ?? null,
          },
        ],
      ),
    );
    this.questions = Object.fromEntries(
      questions
        .filter((q) => q.status === 'PENDING' || q.answerable)
        .map((q) => [q.requestId, { ...q, expired: q.status === 'EXPIRED' }]),
    );
  }

  /** The run active on `nodeId` (null: the map itself), if any. */
  activeRun(nodeId: string | null): RunActivity | undefined {
    return Object.values(this.runs).find((run) => run.nodeId === nodeId && ACTIVE_RUN_STATUSES.includes(run.status));
  }

  /** The last failed run on `nodeId`, to say why it stopped. */
  failedRun(nodeId: string | null): RunActivity | undefined {
    return Object.values(this.runs).findLast((run) => run.nodeId === nodeId && run.status === 'FAILED');
  }

  /** The runs on `nodeId` (null: the map itself), newest first. */
  runsFor(nodeId: string | null): RunActivity[] {
    return Object.values(this.runs)
      .filter((run) => run.nodeId === nodeId)
      .sort((a, b) => (b.startedAt ?? '').localeCompare(a.startedAt ?? ''));
  }

  /** Questions waiting for the person about `nodeId` (null: the map itself). */
  questionsFor(nodeId: string | null): OpenQuestion[] {
    return Object.values(this.questions).filter((q) => q.nodeId === nodeId);
  }

  /** Records a run that has just been created: running, or waiting for its dependencies. */
  #start(
    event: { runId: string; nodeId: string | null; at: string; run: { agent: RunActivity['agent'] } },
    status: RunActivity['status'],
    waitingFor: RunActivity['waitingFor'],
    forkedFromStep?: RunActivity['forkedFromStep'],
  ): void {
    this.#put({
      id: event.runId,
      nodeId: event.nodeId,
      agent: event.run.agent,
      status,
      step: null,
      branches: [],
      lastStep: null,
      text: '',
      error: null,
      startedAt: event.at,
      finishedAt: null,
      tokens: null,
      waitingFor,
      ...(forkedFromStep === undefined ? {} : { forkedFromStep }),
    });
  }

  /**
   * Seeds again from a read of RUNS and PENDING_QUESTIONS made now (`read`, null when it failed), then plays again
   * the events applied while it was on its way. The map's feed follows on from the `lastSeq` of the map's first
   * read, but the first seed's reads went beside it and may have been answered before it: an agent's question
   * asked (or a run started) between the two was in neither, and the feed never sends it. A read made after the
   * map's read has everything up to that `lastSeq`; what came after reaches the feed, and is played on top.
   */
  async catchUp(read: () => Promise<[SeedRun[], SeedQuestion[]] | null>): Promise<void> {
    const since: AgentEvent[] = [];
    this.#sinceRead.add(since);
    try {
      const seeded = await read();
      this.#sinceRead.delete(since);
      if (!seeded) return;
      this.seed(...seeded);
      for (const event of since) this.apply(event);
    } finally {
      this.#sinceRead.delete(since);
    }
  }

  /** Applies one agent event. */
  apply(event: AgentEvent): void {
    for (const since of this.#sinceRead) since.push(event);
    // Streamed text is shown as it comes (`text`); every other event of a run moves its path on.
    if (event.__typename !== 'AgentTokens' && 'runId' in event && event.runId)
      this.runEventsSeen = { ...this.runEventsSeen, [event.runId]: (this.runEventsSeen[event.runId] ?? 0) + 1 };
    switch (event.__typename) {
      case 'RunStarted':
        this.#start(event, 'RUNNING', [], event.run.forkedFromStep);
        return;
      case 'RunWaitingForDependencies':
        this.#start(event, 'WAITING_FOR_DEPENDENCIES', event.waitingForQuestions);
        return;
      case 'DecisionRecorded':
        if (event.nodeId)
          this.decisionsSeen = { ...this.decisionsSeen, [event.nodeId]: (this.decisionsSeen[event.nodeId] ?? 0) + 1 };
        return;
      case 'AgentStep':
        this.#update(event.runId, (run) => stepMoved(run, event));
        return;
      case 'AgentTokens':
        // A run's own text; a run writing other nodes at once (a divergent session's tasks) streams theirs
        // to those nodes (the divergent flow shows them), never mixed into the run's.
        this.#update(event.runId, (run) =>
          event.nodeId && run.nodeId && event.nodeId !== run.nodeId ? run : { ...run, text: run.text + event.text },
        );
        return;
      case 'AgentQuestion': {
        const { requestId, runId, nodeId, kind, question, context, expiresAt } = event;
        this.questions = {
          ...this.questions,
          [requestId]: { requestId, runId, nodeId, kind, question, context, expiresAt },
        };
        this.#update(event.runId, (run) => ({ ...run, status: 'WAITING', step: null }));
        return;
      }
      case 'QuestionResolved': {
        const { [event.requestId]: resolved, ...rest } = this.questions;
        // An expired gate never passes: it stays, marked expired, and its run pauses until the person answers.
        if (resolved && event.status === 'EXPIRED' && isGateQuestion(resolved.kind)) {
          this.questions = { ...this.questions, [event.requestId]: { ...resolved, expired: true } };
          this.#update(event.runId, (run) => ({ ...run, status: 'PAUSED', step: null }));
          return;
        }
        this.questions = rest;
        return;
      }
      case 'RunFinished':
        this.#update(event.runId, (run) => ({
          ...run,
          status: 'COMPLETED',
          step: null,
          finishedAt: event.at,
          tokens: event.run.promptTokens + event.run.completionTokens,
          tokensEstimated: event.run.tokensEstimated,
        }));
        this.#dropQuestionsOf(event.runId);
        return;
      case 'RunFailed':
        this.#update(event.runId, (run) => ({
          ...run,
          status: event.code === 'CANCELLED' ? 'CANCELLED' : 'FAILED',
          step: null,
          error: event.reason,
          finishedAt: event.at,
        }));
        this.#dropQuestionsOf(event.runId);
        return;
    }
  }

  #put(run: RunActivity): void {
    this.runs = { ...this.runs, [run.id]: run };
  }

  #update(runId: string, change: (run: RunActivity) => RunActivity): void {
    const run: RunActivity = this.runs[runId] ?? {
      id: runId,
      nodeId: null,
      agent: '',
      status: 'RUNNING',
      step: null,
      branches: [],
      lastStep: null,
      text: '',
      error: null,
      startedAt: null,
      finishedAt: null,
      tokens: null,
      waitingFor: [],
    };
    this.#put(change(run));
  }

  #dropQuestionsOf(runId: string): void {
    this.questions = Object.fromEntries(Object.entries(this.questions).filter(([, q]) => q.runId !== runId));
  }
}

/**
 * A run after one of its steps was entered or left. Parallel branches of one step (a divergent level's tasks)
 * enter and leave in any order: the step stays current while any of them runs.
 */
function stepMoved(run: RunActivity, event: { step: string; branch?: string | null; phase: string }): RunActivity {
  const branch = event.branch ?? null;
  if (event.phase === 'ENTERED') {
    const joining = branch !== null && run.step === event.step;
    return {
      ...run,
      status: 'RUNNING',
      step: event.step,
      branches: branch === null ? [] : [...(joining ? run.branches : []), branch],
      lastStep: event.step,
      text: joining ? run.text : '',
    };
  }
  if (run.step !== event.step) return run;
  const branches = run.branches.filter((b) => b !== branch);
  return { ...run, branches, step: branches.length ? run.step : null };
}

/** What the page saw live of a run (not in the API's answer) that a new seed keeps while its status is unchanged. */
function liveOf(
  run: RunActivity | undefined,
  status: RunActivity['status'],
): Pick<RunActivity, 'step' | 'branches' | 'lastStep' | 'text'> {
  if (run?.status === status) return { step: run.step, branches: run.branches, lastStep: run.lastStep, text: run.text };
  return { step: null, branches: [], lastStep: run?.lastStep ?? null, text: '' };
}
