import type { Database, User } from '@thinkingmap/db';
import type { RunService } from '../agents/run-service.ts';
import type { CommandContext } from '../commands/context.ts';
import type { EventBus } from '../events/event-bus.ts';
import type { MapReadCache } from '../read-cache/map-read-cache.ts';
import type { Loaders } from './loaders.ts';

/** What every resolver sees. */
export interface GraphQLContext {
  db: Database;
  bus: EventBus;
  viewer: User;
  /** Hot reads of large maps, kept until the map's next event. */
  cache: MapReadCache;
  /** Per-request batch loaders. */
  loaders: Loaders;
  /** Agent runs: start, answer, cancel. */
  runs: RunService;
  /** Which model the agents use. */
  model: { offline: boolean; label: string };
  /** The same context the command layer takes, so resolvers stay one line. */
  commands: CommandContext;
}
