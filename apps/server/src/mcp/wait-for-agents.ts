import type { CommandContext } from '../commands/context.ts';
import type { MapEvent } from '../commands/map-event.ts';

/** The events after which a run may have paused or ended. */
const SETTLING = new Set<MapEvent['type']>(['AgentQuestion', 'RunFinished', 'RunFailed', 'RunStarted']);

/** The longest a tool may wait for agents: under the SDK client's default 60 s request timeout. */
export const MAX_WAIT_SECONDS = 50;

/**
 * Waits until the agents of a map have something to show: with `runId`, until that run is no longer
 * RUNNING (it asks a question, finishes or fails); without, until no run of the map is RUNNING. Wakes on
 * the map's events and re-checks once a second as well (a bus gives no delivery guarantee). Resolves
 * `false` when `seconds` pass first. Reads only.
 */
export async function waitForAgents(
  ctx: CommandContext,
  mapId: string,
  seconds: number,
  runId?: string,
): Promise<boolean> {
  const settled = async () => {
    const running = await ctx.db.read.agentRun.count({
      where: { mapId, status: 'RUNNING', ...(runId ? { id: runId } : {}) },
    });
    return running === 0;
  };
  return waitUntil(ctx, mapId, seconds, settled, (event) => SETTLING.has(event.type));
}

/**
 * Waits until `settled()` reads true: checked at once, on each event of the map that `wakes`, and once a
 * second as well (a bus gives no delivery guarantee). Resolves `false` when `seconds` (at most
 * {@link MAX_WAIT_SECONDS}) pass first. Reads only.
 */
export function waitUntil(
  ctx: CommandContext,
  mapId: string,
  seconds: number,
  settled: () => Promise<boolean>,
  wakes: (event: MapEvent) => boolean,
): Promise<boolean> {
  if (seconds <= 0) return Promise.resolve(false);
  return new Promise<boolean>((resolve, reject) => {
    let checking = false;
    let again = false;
    const finish = (value: boolean) => {
      stop();
      clearInterval(poll);
      clearTimeout(deadline);
      resolve(value);
    };
    const check = () => {
      if (checking) {
        again = true;
        return;
      }
      checking = true;
      settled()
        .then((done) => {
          checking = false;
          if (done) finish(true);
          else if (again) {
            again = false;
            check();
          }
        })
        .catch((error) => {
          stop();
          clearInterval(poll);
          clearTimeout(deadline);
          reject(error);
        });
    };
    const stop = ctx.bus.listen(mapId, (event) => {
      if (wakes(event)) check();
    });
    const poll = setInterval(check, 1_000);
    const deadline = setTimeout(() => finish(false), Math.min(seconds, MAX_WAIT_SECONDS) * 1_000);
    check();
  });
}
