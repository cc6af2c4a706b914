import type { DivergentSkillName, DivergentSteering } from '@thinkingmap/agent-core';
import { DivergentTaskStatus } from '@thinkingmap/db/enums';
import type { MapEvent, StoredEvent } from '../commands/map-event.ts';

type Payload<K extends MapEvent['type']> = StoredEvent<K>['payload'];
type Scored = Omit<Payload<'CompletionScored'>, 'runId'>;
type Steered = Payload<'DivergentSteered'>;

/** A task of a session as its events tell it. */
export interface SessionTask {
  key: string;
  nodeId: string;
  level: number;
  name: string;
  query: string;
  skill: string;
  priority: number;
  status: DivergentTaskStatus;
  reason: string | null;
  /** The steering id when the person added the task. */
  addedId: string | null;
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

/** A task the person added, and the level that ran it (null while it waits for the next level). */
export interface AddedTask {
  id: string;
  name: string;
  query: string;
  skill: DivergentSkillName;
  priority: number;
  level: number | null;
  createdAt: string;
}

/** Feedback the person gave, for the next summary. */
export interface SessionFeedback {
  id: string;
  text: string;
  createdAt: string;
}

/** How the person steered a session so far (folded from its `DivergentSteered` events). */
export interface SessionSteering {
  stopRequested: boolean;
  /** The threshold the person set last, or null. */
  threshold: number | null;
  skipped: string[];
  feedback: SessionFeedback[];
  addedTasks: AddedTask[];
}

/** A divergent session's state, folded from its run's events (so it survives restarts and the run's end). */
export interface DivergentSessionState extends SessionSteering {
  levels: SessionLevel[];
  scores: Scored[];
  finished: Omit<Payload<'DivergentFinished'>, 'runId'> | null;
}

const ofRun = (runId: string, event: MapEvent) => 'runId' in event.payload && event.payload.runId === runId;

/** Applies one steering change. */
function steer(state: SessionSteering, p: Steered, createdAt: string): void {
  if (p.action === 'STOP') state.stopRequested = true;
  else if (p.action === 'SET_THRESHOLD') state.threshold = p.threshold;
  else if (p.action === 'SKIP_TASK' && p.taskKey) state.skipped.push(p.taskKey);
  else if (p.action === 'ADD_FEEDBACK' && p.feedback)
    state.feedback.push({ id: p.steeringId, text: p.feedback, createdAt });
  else if (p.action === 'ADD_TASK' && p.task)
    state.addedTasks.push({ id: p.steeringId, ...p.task, level: null, createdAt });
}

const noSteering = (): SessionSteering => ({
  stopRequested: false,
  threshold: null,
  skipped: [],
  feedback: [],
  addedTasks: [],
});

/** The person's steering of one session (its run's id), in log order: what the graph reads at each step. */
export function foldSteering(runId: string, events: readonly MapEvent[]): DivergentSteering {
  const state = noSteering();
  for (const event of events)
    if (event.type === 'DivergentSteered' && ofRun(runId, event)) steer(state, event.payload, event.createdAt);
  return {
    stop: state.stopRequested,
    threshold: state.threshold,
    skipped: state.skipped,
    feedback: state.feedback.map(({ id, text }) => ({ id, text })),
    tasks: state.addedTasks.map(({ id, name, query, skill, priority }) => ({
      id,
      name,
      query,
      skill,
      priority,
    })),
  };
}

/** Folds the events of one session (its run's id) into its state, in log order. */
export function foldDivergentSession(runId: string, events: readonly MapEvent[]): DivergentSessionState {
  const state: DivergentSessionState = { levels: [], scores: [], finished: null, ...noSteering() };
  const level = (n: number) => state.levels.find((l) => l.level === n);
  const task = (n: number, key: string) => level(n)?.tasks.find((t) => t.key === key);
  for (const event of events) {
    if (!ofRun(runId, event)) continue;
    if (event.type === 'DivergentLevelStarted') {
      const p = event.payload;
      state.levels.push({
        level: p.level,
        plannedFrom: p.summaryNodeId,
        tasks: p.tasks.map((t) => ({
          ...t,
          addedId: t.addedId ?? null,
          level: p.level,
          status: DivergentTaskStatus.PLANNED,
          reason: null,
        })),
        dropped: p.dropped.map((d) => ({ ...d, level: p.level })),
        score: null,
      });
      for (const t of p.tasks) {
        const added = state.addedTasks.find((a) => a.id === t.addedId);
        if (added) added.level = p.level;
      }
    } else if (event.type === 'DivergentTaskStarted') {
      const t = task(event.payload.level, event.payload.key);
      if (t) t.status = DivergentTaskStatus.RUNNING;
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
    } else if (event.type === 'DivergentSteered') steer(state, event.payload, event.createdAt);
  }
  return state;
}
