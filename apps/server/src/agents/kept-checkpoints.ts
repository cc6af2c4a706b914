import type { ReadDb } from '@thinkingmap/db';

/**
 * Whether a run's thread still has a checkpoint in its root namespace: what a fork starts from. Finished runs
 * beyond the kept window lose theirs (pruning), and the fork command and the run's path both ask this, so the
 * web never offers a fork the server would refuse.
 */
export async function checkpointsKept(db: Pick<ReadDb, 'checkpoint'>, threadId: string): Promise<boolean> {
  const kept = await db.checkpoint.findFirst({ where: { threadId, namespace: '' }, select: { checkpointId: true } });
  return kept !== null;
}
