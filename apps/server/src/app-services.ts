import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { ModelPort } from '@thinkingmap/agent-core';
import { type Database, repoDir } from '@thinkingmap/db';
import { type AppOptions, DEFAULT_RUN_SETTINGS } from './app-options.ts';
import type { MapEvent } from './commands/map-event.ts';
import { ConsultationService } from './consultations/consultation-service.ts';
import { FileNotes } from './consultations/file-notes.ts';
import type { EventBus } from './events/event-bus.ts';
import { watchForGaps } from './events/gap-watch.ts';
import { every } from './http/lifecycle.ts';
import type { ServerMetrics } from './ops/metrics.ts';
import { expireDueQuestions } from './runs/expire-questions.ts';
import { recoverRuns } from './runs/recover-runs.ts';
import { RunEngine } from './runs/run-engine.ts';
import { startTriggeredRuns } from './runs/run-triggers.ts';
import { startWaiting } from './runs/start-waiting.ts';

/** What {@link startServices} builds on. */
export interface ServiceDeps {
  db: Database;
  bus: EventBus;
  metrics: ServerMetrics;
  model: ModelPort;
  logError(error: unknown): void;
}

/**
 * The agents (runs), consultations and their notes, wired to every committed change; runs and consultations a
 * previous process left unfinished are resumed (unless `recoverRuns` is false). `drain` stops their background work
 * and lets work in progress reach a point it resumes from.
 */
export async function startServices(deps: ServiceDeps, options: AppOptions) {
  const { db, bus, metrics, model, logError } = deps;
  const settings = { ...DEFAULT_RUN_SETTINGS, ...options.runSettings };
  // Every committed change passes here: bottom-up conclusions start from it, and the embedder's hook.
  const onCommitted = (events: readonly MapEvent[]) => {
    void startTriggeredRuns(engine, commands, events);
    consultations.onEvents(events);
    metrics.onCommitted(events);
    options.onCommitted?.(events);
  };
  const commands = { db, bus, onCommitted };
  const owner = { instanceId: options.instanceId ?? randomUUID(), bootId: randomUUID() };
  const { knowledge, webSearch } = options;
  const engine = new RunEngine({ ...commands, model, knowledge, webSearch, settings, logError, owner });
  const notes = new FileNotes(options.notesDir ?? join(repoDir, '.data/notes'));
  const compressAfterTurns = options.consultationCompressAfter;
  const consultations = new ConsultationService({ ...commands, model, notes, engine, logError, compressAfterTurns });

  // Runs a dead process left mid-step (their lease ran out) are resumed, at start and then periodically, as are runs
  // whose dependencies concluded while no process could start them. Redis may drop messages: subscriptions re-read
  // the log when their map moved past what arrived.
  const recover = () => recoverRuns(engine, db).then(() => startWaiting(engine, commands));
  const recovers = options.recoverRuns !== false;
  if (recovers) await recover();
  if (recovers) await consultations.resumeUnfinished();
  const background = [
    every(
      Math.max(50, Math.min(30_000, settings.questionTtlMs / 4)),
      () => expireDueQuestions(engine, commands),
      logError,
    ),
    recovers ? every(engine.leaseMs / 4, recover, logError) : () => {},
    options.redisUrl ? watchForGaps({ db: db.read, bus, intervalMs: options.gapCheckMs, logError }) : () => {},
  ];
  const drain = [
    ...background,
    // A consultation turn in progress is released: still busy in the database, the next start runs it again.
    () => consultations.conductor.releaseAll(),
    // Drives in progress reach their next checkpoint; a waiting run needs nothing (it is in the database).
    () => Promise.race([engine.idle(), new Promise((resolve) => setTimeout(resolve, 5_000))]),
  ];
  return { commands, engine, notes, consultations, drain };
}
