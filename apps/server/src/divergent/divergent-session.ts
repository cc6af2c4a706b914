import type { MapEvent, StoredEvent } from '../events/map-event.ts';

type Payload<K extends MapEvent['type']> = StoredEvent<K>['payload'];
type Scored = Omit<Payload<'CompletionScored'>, 'runId'>;

/** A task of a session as its events tell it. */
export interface SessionTask {
  key: string;
  nodeId: string;
  level: number;
  name: string;
  query: string;
  skill: string;
  priority: number;
  status: 'PLANNED' | 'RUNNING' | 'DONE' | 'FAILED';
  reason: string | null;
}

/** A level of a session: its tasks, those dropped, and the score of the summary that converged them. */
export interface SessionLevel {
  level: number;
  /** The summary the level's tasks were planned from. */
  plannedFrom: string;
  tasks: SessionTask[];
  dropped: (Omit<Payload<'DivergentLevelStarted'>['dropped'][number], never> & { level: number })[];
  score: Scored | null;
}

/** A divergent session's state, folded from its run's events (so it survives restarts and the run's end). */
export interface DivergentSessionState {
  levels: SessionLevel[];
  scores: Scored[];
  finished: Omit<Payload<'DivergentFinished'>, 'runId'> | null;
}

/** Folds the events of one session (its run's id) into its state, in log order. */
export function foldDivergentSession(runId: string, events: readonly MapEvent[]): DivergentSessionState {
  const state: DivergentSessionState = { levels: [], scores: [], finished: null };
  const level = (n: number) => state.levels.find((l) => l.level === n);
  const task = (n: number, key: string) => level(n)?.tasks.find((t) => t.key === key);
  for (const event of events) {
    if (!('runId' in event.payload) || event.payload.runId !== runId) continue;
    if (event.type === 'DivergentLevelStarted') {
      const p = event.payload;
      state.levels.push({
        level: p.level,
        plannedFrom: p.summaryNodeId,
        tasks: p.tasks.map((t) => ({ ...t, level: p.level, status: 'PLANNED', reason: null })),
        dropped: p.dropped.map((d) => ({ ...d, level: p.level })),
        score: null,
      });
    } else if (event.type === 'DivergentTaskStarted') {
      const t = task(event.payload.level, event.payload.key);
      if (t) t.status = 'RUNNING';
    } else if (event.type === 'DivergentTaskFinished') {
      const t = task(event.payload.level, event.payload.key);
      if (t) Object.assign(t, { status: event.payload.status, reason: event.payload.reason });
    } else if (event.type === 'CompletionScored') {
      const { runId: _, ...scored } = event.payload;
      state.scores.push(scored);
      const l = level(scored.level);
      if (l) l.score = scored;
    } else if (event.type === 'DivergentFinished') {
      const { runId: _, ...finished } = event.payload;
      state.finished = finished;
    }
  }
  return state;
}
