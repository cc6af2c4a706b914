import type { DivergentSkillName } from './divergent-skills-port.ts';

/** A task the person added to a session (it runs in the next level planned, before the planner's own). */
export interface SteeredTask {
  /** The steering's id (the session reports which level ran it). */
  id: string;
  name: string;
  query: string;
  skill: DivergentSkillName;
  priority: number;
}

/** How the person steers a running divergent session; every field only grows or is replaced. */
export interface DivergentSteering {
  /** The person stopped the session: it ends after the current step with a final output from what exists. */
  stop: boolean;
  /** The threshold the person set last, or null (the session's own). */
  threshold: number | null;
  /** Keys (`L1.T2`) of the tasks the person skipped. */
  skipped: string[];
  /** Feedback each next summary must take into account (a summary uses each once). */
  feedback: { id: string; text: string }[];
  /** Tasks the person added (each runs once). */
  tasks: SteeredTask[];
}

/** No steering at all. */
export const NO_STEERING: DivergentSteering = { stop: false, threshold: null, skipped: [], feedback: [], tasks: [] };

/**
 * Where a divergent session reads the person's steering (the server keeps it as map events). The graph reads
 * it at every step, so a change applies at the next step; `taskSignal` lets a skip or a stop abort a task that
 * is running.
 */
export interface DivergentSteeringPort {
  read(): Promise<DivergentSteering>;
  /** A signal aborted when the person skips this task or stops the session while it runs. */
  taskSignal(key: string): AbortSignal;
  /** The task ended: its signal is no longer needed. */
  release(key: string): void;
}
