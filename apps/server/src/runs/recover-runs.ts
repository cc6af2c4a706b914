import type { CommandContext } from '../commands/context.ts';
import type { RunEngine } from './run-engine.ts';

/**
 * Runs left mid-step by a process that died go on from their last checkpoint. A run counts as abandoned
 * when its lease (refreshed while some process drives it) is older than `leaseMs`, so several server
 * instances on one database never drive the same run — or at once when this instance drove it under an
 * earlier boot (that process is gone: this one replaced it). Waiting runs just wait. Returns how many resumed.
 */
export async function recoverRuns(
  engine: RunEngine,
  db: CommandContext['db'],
  leaseMs = engine.leaseMs,
  now = new Date(),
): Promise<number> {
  const stale = new Date(now.getTime() - leaseMs);
  const owner = engine.ownerColumns;
  const abandoned = await db.read.agentRun.findMany({
    where: {
      status: 'RUNNING',
      OR: [{ updatedAt: { lt: stale } }, { ownerInstance: owner.ownerInstance, NOT: { ownerBoot: owner.ownerBoot } }],
    },
  });
  let resumed = 0;
  for (const run of abandoned) {
    if (engine.isActive(run.id)) continue;
    // Claim it: only the process whose update still sees the stale lease resumes the run. Like the lease's
    // heartbeat, this is coordination between processes, not a change to the map: no event, no map lock
    // (commands on the map must not wait for it), but the single write path all the same. The dead drive's
    // model calls will never settle: what they held of the map's budget is given back.
    const claimed = await db.write((tx) =>
      tx.agentRun.updateMany({
        where: { id: run.id, status: 'RUNNING', updatedAt: run.updatedAt },
        data: { updatedAt: now, ...owner, tokensReserved: 0 },
      }),
    );
    if (claimed.count === 0) continue;
    resumed++;
    // From its last pause (with the replies it already got), or from its input when it never paused.
    void engine.recover(run);
  }
  return resumed;
}
