import type { Database } from '@thinkingmap/db';

/**
 * Stores a process-node run on `nodeId` as a process leaves the run it was driving when it is killed: RUNNING,
 * with `fields` saying when its lease was last refreshed (`updatedAt`) and who drove it (`ownerInstance`,
 * `ownerBoot`).
 */
export function leaveRunRunning(
  db: Database,
  run: { mapId: string; nodeId: string },
  fields: { updatedAt?: Date; ownerInstance?: string; ownerBoot?: string } = {},
) {
  // Its id is the database's own, as for every run; its thread is a fresh one (as `createRun` makes them).
  return db.write((tx) =>
    tx.agentRun.create({
      data: {
        ...run,
        agent: 'process-node',
        threadId: crypto.randomUUID(),
        status: 'RUNNING',
        input: { nodeId: run.nodeId },
        ...fields,
      },
    }),
  );
}
