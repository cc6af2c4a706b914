import { DIVERGENT_SESSION, type SuccessOf } from '@thinkingmap/client';
import { AgentGraph } from '@thinkingmap/db/enums';
import type { Client } from '@urql/core';
import { runQuery } from '../api/request.ts';
import type { MapEvent, MapNode } from '../api/results.ts';
import type { MapStore } from '../map/map-store.svelte.ts';

/** A divergent session as `divergentSession(id)` returns it (the server folds it from the session's events). */
export type DivergentSessionData = Extract<SuccessOf<typeof DIVERGENT_SESSION>, { __typename: 'DivergentSession' }>;
/** One task of a level, as the session reports it. */
export type DivergentTaskData = DivergentSessionData['levels'][number]['tasks'][number];
/** One level's completion score with its three dimensions and their reasons. */
export type CompletionScoreData = DivergentSessionData['scores'][number];

/** The events of a divergent session. */
const DIVERGENT_EVENTS = new Set<MapEvent['__typename']>([
  'DivergentLevelStarted',
  'DivergentTaskStarted',
  'DivergentTaskFinished',
  'CompletionScored',
  'DivergentFinished',
  'DivergentSteered',
]);
/** Run events that change a session's status (finished, failed, waiting for the person). */
const RUN_EVENTS = new Set<MapEvent['__typename']>(['RunFinished', 'RunFailed', 'AgentQuestion', 'QuestionResolved']);

/**
 * The divergent sessions of one map, kept current from the map's events: each session is read again from
 * `divergentSession(id)` when one of its events arrives (one read at a time per session; events that come
 * during a read ask for one more), so what the server folded is the only source of the levels, tasks and
 * scores. The text each task (or the final output) streams is collected here from its `AgentTokens`.
 */
export class DivergentSessions {
  sessions = $state.raw<Record<string, DivergentSessionData>>({});
  /** Text streamed so far per node of a session (a running task, the final output). */
  streamed = $state.raw<Record<string, string>>({});
  #reading = new Map<string, Promise<void>>();
  #again = new Set<string>();
  #stop: (() => void) | null = null;

  constructor(
    private readonly client: Client,
    private readonly store: MapStore,
  ) {}

  /** Reads the map's divergent sessions (from its runs) and follows their events; returns the stop function. */
  start(): () => void {
    for (const run of Object.values(this.store.agents.runs))
      if (run.agent === AgentGraph.DIVERGENT) void this.refresh(run.id);
    this.#stop = this.store.listen((event) => this.#apply(event));
    return () => this.#stop?.();
  }

  /** Whether the flow shows: the person's choice, else open when the map explores divergently or has a session. */
  flowOpen(choice: boolean | null, mode: string | undefined): boolean {
    return choice ?? (Object.keys(this.sessions).length > 0 || mode === 'DIVERGENT');
  }

  /** Sessions newest first. */
  get list(): DivergentSessionData[] {
    const runs = this.store.agents.runs;
    return Object.values(this.sessions).sort((a, b) =>
      (runs[b.id]?.startedAt ?? '').localeCompare(runs[a.id]?.startedAt ?? ''),
    );
  }

  /** The session whose summaries, tasks or final output include `nodeId`, or that explores it. */
  sessionOf(nodeId: string): DivergentSessionData | undefined {
    return this.list.find(
      (s) =>
        s.nodeId === nodeId ||
        s.finalNodeId === nodeId ||
        s.levels.some((l) => l.plannedFromNodeId === nodeId || l.tasks.some((t) => t.nodeId === nodeId)) ||
        s.scores.some((score) => score.summaryNodeId === nodeId),
    );
  }

  /** Puts a session a steering mutation returned. */
  put(data: DivergentSessionData): void {
    this.sessions = { ...this.sessions, [data.id]: data };
  }

  /** Reads a session again (coalesced: one read at a time, and one more if asked during it). */
  refresh(id: string): Promise<void> {
    const current = this.#reading.get(id);
    if (current) {
      this.#again.add(id);
      return current;
    }
    const read = runQuery(this.client, DIVERGENT_SESSION, { id })
      .then((result) => {
        if (result.ok && result.value.__typename === 'DivergentSession')
          this.sessions = { ...this.sessions, [id]: result.value };
      })
      .finally(() => {
        this.#reading.delete(id);
        if (this.#again.delete(id)) void this.refresh(id);
      });
    this.#reading.set(id, read);
    return read;
  }

  #apply(event: MapEvent): void {
    if (event.__typename === 'RunStarted') {
      if (event.run.agent === AgentGraph.DIVERGENT) void this.refresh(event.runId);
      return;
    }
    if (event.__typename === 'AgentTokens') {
      if (event.nodeId && this.sessions[event.runId] && event.nodeId !== this.sessions[event.runId]?.nodeId)
        this.streamed = { ...this.streamed, [event.nodeId]: (this.streamed[event.nodeId] ?? '') + event.text };
      return;
    }
    if (!('runId' in event) || typeof event.runId !== 'string') return;
    if (DIVERGENT_EVENTS.has(event.__typename) || (RUN_EVENTS.has(event.__typename) && this.sessions[event.runId]))
      void this.refresh(event.runId);
  }
}

/** One step of the flow: a summary with the tasks planned from it (the next level), then the next summary. */
export interface FlowLevel {
  /** The summary's level (0: the first restatement). */
  level: number;
  summary: MapNode | undefined;
  score: CompletionScoreData | undefined;
  /** The tasks planned from this summary (level + 1), when a level started from it. */
  tasks: DivergentTaskData[];
  dropped: DivergentSessionData['levels'][number]['dropped'];
}

/**
 * The flow of a session read from the session and the map's nodes: each summary (found on the map as the
 * SUMMARY child of the previous one, so a summary shows as soon as it is written), its score, and the tasks
 * planned from it; then the final output.
 */
export function flowOf(
  session: DivergentSessionData,
  nodes: Readonly<Record<string, MapNode>>,
): { levels: FlowLevel[]; final: MapNode | undefined } {
  const all = Object.values(nodes);
  const childSummary = (parentId: string | null | undefined, level: number) =>
    all
      .filter((n) => n.parentId === parentId && n.divergentRole === 'SUMMARY' && n.divergentLevel === level)
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0];
  const planned = session.levels[0]?.plannedFromNodeId;
  let summary = planned ? nodes[planned] : childSummary(session.nodeId, 0);
  const levels: FlowLevel[] = [];
  for (let level = 0; summary && level <= 5; level++) {
    const from = session.levels.find((l) => l.level === level + 1);
    levels.push({
      level,
      summary,
      score: session.scores.find((s) => s.level === level),
      tasks: from?.tasks ?? [],
      dropped: from?.dropped ?? [],
    });
    const next: string | undefined = session.scores.find((s) => s.level === level + 1)?.summaryNodeId;
    summary = (next ? nodes[next] : undefined) ?? childSummary(summary.id, level + 1);
  }
  const final =
    (session.finalNodeId ? nodes[session.finalNodeId] : undefined) ??
    all.find((n) => n.divergentRole === 'FINAL' && levels.some((l) => l.summary?.id === n.parentId));
  return { levels, final };
}
