import type { ReadDb } from '@thinkingmap/db';
import { readHistoryEvents } from './history-events.ts';

/** One visit of a run to a graph step, from its AgentStep events. */
export interface PathStep {
  step: string;
  /** 1 for the first visit of this step in the run, 2 for the second (a loop: another feedback round)… */
  round: number;
  enteredSeq: number;
  enteredAt: string;
  /** done, failed or interrupted; null while the step runs (or waits for the person). */
  outcome: string | null;
  /** Time spent in the step, summed over a pause and its resume. */
  durationMs: number | null;
}

/** A run's path so far and the step it is in. */
export interface RunPath {
  runId: string;
  graph: string | null;
  steps: PathStep[];
  /** The step the run is in now (entered, not left, or waiting for the person), null once it ended. */
  current: string | null;
}

/**
 * Reads a run's path from its map's AgentStep events: each step entered, in order, with its outcome and
 * duration. A step the run re-enters after it was interrupted (LangGraph re-runs it on resume) is the same
 * visit; entering it again after it was done is a new round, so a feedback loop shows as rounds.
 */
export async function runPath(db: ReadDb, mapId: string, runId: string): Promise<RunPath> {
  const steps: PathStep[] = [];
  const rounds = new Map<string, number>();
  let graph: string | null = null;
  for (const event of await readHistoryEvents(db, mapId)) {
    if (event.type !== 'AgentStep' || event.payload.runId !== runId) continue;
    const { step, phase, outcome, durationMs } = event.payload;
    graph = event.payload.graph;
    const last = steps.findLast((s) => s.step === step);
    if (phase === 'ENTERED') {
      if (last && last === steps.at(-1) && last.outcome === 'interrupted') {
        last.outcome = null; // resumed
        continue;
      }
      const round = (rounds.get(step) ?? 0) + 1;
      rounds.set(step, round);
      steps.push({ step, round, enteredSeq: event.seq, enteredAt: event.createdAt, outcome: null, durationMs: null });
    } else if (last) {
      last.outcome = outcome;
      last.durationMs = (last.durationMs ?? 0) + (durationMs ?? 0);
    }
  }
  const tail = steps.at(-1);
  const current = tail && (tail.outcome === null || tail.outcome === 'interrupted') ? tail.step : null;
  return { runId, graph, steps, current };
}
