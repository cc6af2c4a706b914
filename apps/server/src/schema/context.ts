import type { ModelCapabilities } from '@thinkingmap/agent-core';
import type { Database, User } from '@thinkingmap/db';
import type { TokenRevocations } from '../auth/token-revocations.ts';
import type { Access } from '../commands/access.ts';
import type { CommandContext } from '../commands/context.ts';
import type { ConsultationService } from '../consultations/consultation-service.ts';
import type { FileNotes } from '../consultations/file-notes.ts';
import type { EventBus } from '../events/event-bus.ts';
import type { ReplayTurns } from '../events/replay-turns.ts';
import type { Deadline } from '../http/query-limits.ts';
import type { Loaders } from '../maps/loaders.ts';
import type { MapReadCache } from '../maps/map-read-cache.ts';
import type { RunEngine } from '../runs/run-engine.ts';

/** What every resolver sees. */
/** Which model the agents use; `capabilities` is read when asked (it changes as the endpoint is found out). */
export interface ModelInfo {
  offline: boolean;
  label: string;
  capabilities(): ModelCapabilities | undefined;
}

export interface GraphQLContext extends Deadline {
  db: Database;
  bus: EventBus;
  /** Who the request acts as (the same as `access.viewer`). */
  viewer: User;
  /** Who acts, with which token and scope (`FULL` or `READ_ONLY`); see auth/access.ts. */
  access: Access;
  /** Token revocations (revokeApiToken announces them to every instance). */
  revocations: TokenRevocations;
  /** Hot reads of large maps, kept until the map's next event. */
  cache: MapReadCache;
  /** Turns for replaying stored events to subscriptions, shared fairly between viewers. */
  replay: ReplayTurns;
  /** Per-request batch loaders. */
  loaders: Loaders;
  /** What drives agent runs: the run commands of runs/ (start, answer, cancel) take it. */
  runs: RunEngine;
  /** Consultations: their turns, and the notes folder. */
  consultations: ConsultationService;
  notes: FileNotes;
  /** Which model the agents use. */
  /** Which model the agents use, and what its endpoint was found to accept so far. */
  model: ModelInfo;
  /** The same context the command layer takes, so resolvers stay one line. */
  commands: CommandContext;
}
