import type { Database, User } from '@thinkingmap/db';
import { testProviders, useTestDatabase } from '@thinkingmap/db/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { readDashboard } from './read-dashboard.ts';

// Token spend is grouped by UTC day in the database, whose storage of a DateTime differs by provider.
const providers = await testProviders();

describe.each(providers)('the dashboard’s token spend on %s', (provider) => {
  const database = useTestDatabase(provider);
  let db: Database;
  let owner: User;
  beforeAll(async () => {
    db = database.db;
    owner = await db.write((tx) => tx.user.create({ data: { name: 'Owner' } }));
  });

  /** A map of `ownerId` with finished runs created at the given instants with the given tokens. */
  async function mapWithRuns(
    ownerId: string,
    title: string,
    runs: { at: string; prompt: number; completion: number; estimated?: boolean }[],
  ) {
    const map = await db.write((tx) => tx.map.create({ data: { ownerId, title, constraints: [] } }));
    await db.write((tx) =>
      tx.agentRun.createMany({
        data: runs.map((run) => ({
          mapId: map.id,
          agent: 'process-node',
          threadId: crypto.randomUUID(),
          status: 'COMPLETED' as const,
          createdAt: new Date(run.at),
          promptTokens: run.prompt,
          completionTokens: run.completion,
          tokensEstimated: run.estimated ?? false,
        })),
      }),
    );
    return map;
  }

  it('should sum tokens per UTC day and per map, most first, split at midnight, with estimates flagged', async () => {
    const stranger = await db.write((tx) => tx.user.create({ data: { name: 'Stranger' } }));
    const busy = await mapWithRuns(owner.id, 'Busy', [
      { at: '2026-03-01T23:59:59.999Z', prompt: 10, completion: 1 },
      { at: '2026-03-02T00:00:00.000Z', prompt: 20, completion: 2, estimated: true },
      { at: '2026-03-02T12:00:00.000Z', prompt: 30, completion: 3 },
    ]);
    const quiet = await mapWithRuns(owner.id, 'Quiet', [{ at: '2026-03-04T00:00:00.001Z', prompt: 5, completion: 0 }]);
    // Outside the range, or spending nothing, or someone else's: not counted.
    await mapWithRuns(owner.id, 'Idle', [{ at: '2026-03-02T10:00:00.000Z', prompt: 0, completion: 0 }]);
    await mapWithRuns(owner.id, 'Old', [{ at: '2026-02-28T23:59:59.999Z', prompt: 1_000, completion: 0 }]);
    await mapWithRuns(stranger.id, 'Theirs', [{ at: '2026-03-02T10:00:00.000Z', prompt: 7_000, completion: 0 }]);

    const dashboard = await readDashboard(
      db.read,
      owner.id,
      new Date('2026-03-01T00:00:00.000Z'),
      new Date('2026-03-04T18:00:00.000Z'),
    );

    expect(dashboard.tokensByDay).toEqual([
      { day: '2026-03-01', promptTokens: 10, completionTokens: 1, estimated: false },
      { day: '2026-03-02', promptTokens: 50, completionTokens: 5, estimated: true },
      { day: '2026-03-03', promptTokens: 0, completionTokens: 0, estimated: false },
      { day: '2026-03-04', promptTokens: 5, completionTokens: 0, estimated: false },
    ]);
    expect(dashboard.tokensByMap).toEqual([
      { mapId: busy.id, mapTitle: 'Busy', promptTokens: 60, completionTokens: 6, estimated: true },
      { mapId: quiet.id, mapTitle: 'Quiet', promptTokens: 5, completionTokens: 0, estimated: false },
    ]);
    expect(dashboard.mapsByStatus).toEqual([{ status: 'ACTIVE', count: 4 }]);
  });

  it('should cut the first and last day at the range’s ends', async () => {
    const viewer = await db.write((tx) => tx.user.create({ data: { name: 'Viewer' } }));
    await mapWithRuns(viewer.id, 'Edges', [
      { at: '2026-05-01T05:59:59.999Z', prompt: 1, completion: 0 },
      { at: '2026-05-01T06:00:00.000Z', prompt: 2, completion: 0 },
      { at: '2026-05-02T06:00:00.000Z', prompt: 4, completion: 0 },
      { at: '2026-05-02T06:00:00.001Z', prompt: 8, completion: 0, estimated: true },
    ]);

    const dashboard = await readDashboard(
      db.read,
      viewer.id,
      new Date('2026-05-01T06:00:00.000Z'),
      new Date('2026-05-02T06:00:00.000Z'),
    );

    expect(dashboard.tokensByDay).toEqual([
      { day: '2026-05-01', promptTokens: 2, completionTokens: 0, estimated: false },
      { day: '2026-05-02', promptTokens: 4, completionTokens: 0, estimated: false },
    ]);
    expect(dashboard.tokensByMap.map((row) => row.promptTokens)).toEqual([6]);
  });
});
