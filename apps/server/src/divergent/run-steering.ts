import type { DivergentSteering, DivergentSteeringPort } from '@thinkingmap/agent-core';
import type { Database } from '@thinkingmap/db';
import { toMapEvent } from '../commands/event-log.ts';
import type { MapEvent } from '../commands/map-event.ts';
import { foldSteering } from './divergent-session.ts';

/** Why a task's signal was aborted: the person skipped it, or stopped its session. */
export type TaskInterruption = 'skip' | 'stop';

/**
 * The signals of the divergent tasks running in this process, by session (run id) and task key: a skip or a
 * stop stored by a command aborts the task's own signal, so its model call ends at once.
 */
export class TaskSignals {
  readonly #byRun = new Map<string, Map<string, AbortController>>();

  /** The task's signal, created on first use. */
  signal(runId: string, key: string): AbortSignal {
    const tasks = this.#byRun.get(runId) ?? new Map<string, AbortController>();
    this.#byRun.set(runId, tasks);
    const controller = tasks.get(key) ?? new AbortController();
    tasks.set(key, controller);
    return controller.signal;
  }

  release(runId: string, key: string): void {
    const tasks = this.#byRun.get(runId);
    tasks?.delete(key);
    if (tasks?.size === 0) this.#byRun.delete(runId);
  }

  interrupt(runId: string, keys: string[] | 'all', reason: TaskInterruption): void {
    for (const [key, controller] of this.#byRun.get(runId) ?? [])
      if (keys === 'all' || keys.includes(key)) controller.abort(reason);
  }
}

/**
 * A session's steering as its drive reads it: the `DivergentSteered` events of its run, folded (one source
 * with `divergentSession`), and the tasks' signals of this process.
 */
export class RunSteering implements DivergentSteeringPort {
  /** The session's steering events read so far, and the last map seq read (each read fetches only newer ones). */
  readonly #events: MapEvent[] = [];
  #seq = 0;

  constructor(
    private readonly db: Database,
    private readonly run: { id: string; mapId: string },
    private readonly signals: TaskSignals,
  ) {}

  async read(): Promise<DivergentSteering> {
    // Up to the map's last seq (an event and its map's lastSeq commit together), so none is skipped.
    const map = await this.db.read.map.findUnique({ where: { id: this.run.mapId }, select: { lastSeq: true } });
    const upTo = map?.lastSeq ?? this.#seq;
    if (upTo > this.#seq) {
      const rows = await this.db.read.event.findMany({
        where: { mapId: this.run.mapId, seq: { gt: this.#seq, lte: upTo }, type: 'DivergentSteered' },
        orderBy: { seq: 'asc' },
      });
      this.#events.push(...rows.map(toMapEvent));
      this.#seq = upTo;
    }
    return foldSteering(this.run.id, this.#events);
  }

  taskSignal(key: string): AbortSignal {
    return this.signals.signal(this.run.id, key);
  }

  release(key: string): void {
    this.signals.release(this.run.id, key);
  }
}
