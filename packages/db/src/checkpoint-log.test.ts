import { describe, expect, it } from 'vitest';
import type { CheckpointWrite } from '../generated/sqlite/client.ts';
import type { CheckpointData } from './checkpoint-log.ts';
import { testProviders } from './test-database.ts';
import { useTestDatabase } from './use-test-database.ts';

const providers = await testProviders();

const checkpoint = (threadId: string, checkpointId: string, data: string): CheckpointData => ({
  threadId,
  namespace: '',
  checkpointId,
  parentCheckpointId: null,
  checkpointType: 'json',
  checkpointData: data,
  metadataType: 'json',
  metadataData: '{"step":1}',
});

const write = (threadId: string, idx: number, data: string): CheckpointWrite => ({
  threadId,
  namespace: '',
  checkpointId: 'c1',
  taskId: 'task',
  idx,
  taskPath: 'p',
  channel: 'x',
  valueType: 'json',
  valueData: data,
});

describe.each(providers)('checkpoint log on %s', (provider) => {
  const database = useTestDatabase(provider);

  it('should store checkpoints that Prisma reads back, replacing one stored under the same key', async () => {
    const { db } = database;
    await db.write((tx) =>
      db.checkpointLog.putCheckpoints(tx, [checkpoint('t1', 'c1', 'one'), checkpoint('t1', 'c2', '二')]),
    );
    await db.write((tx) =>
      db.checkpointLog.putCheckpoints(tx, [{ ...checkpoint('t1', 'c1', 'one again'), parentCheckpointId: 'c0' }]),
    );
    const rows = await db.read.checkpoint.findMany({ where: { threadId: 't1' }, orderBy: { checkpointId: 'asc' } });
    expect(rows.map(({ createdAt: _c, ...row }) => row)).toEqual([
      { ...checkpoint('t1', 'c1', 'one again'), parentCheckpointId: 'c0' },
      checkpoint('t1', 'c2', '二'),
    ]);
    expect(rows[0]!.createdAt).toBeInstanceOf(Date);
    // Stored as the database stores its times: read back as the moment it was written.
    expect(Math.abs(rows[0]!.createdAt.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('should store more writes than one statement binds, every one of them', async () => {
    const { db } = database;
    const many = Array.from({ length: 1_201 }, (_, i) => write('t-many', i - 1, `v${i}`));
    await db.write((tx) => db.checkpointLog.putWrites(tx, many));
    expect(await db.read.checkpointWrite.count({ where: { threadId: 't-many' } })).toBe(1_201);
    expect(await db.checkpointLog.writesOf('t-many', '', 'c1')).toHaveLength(1_201);
  });

  it('should keep a stored write of a re-run task and replace a special one', async () => {
    const { db } = database;
    await db.write((tx) => db.checkpointLog.putWrites(tx, [write('t2', 0, 'first run'), write('t2', -1, 'old')]));
    await db.write((tx) =>
      db.checkpointLog.putWrites(tx, [write('t2', 0, 'second run'), write('t2', -1, 'new'), write('t2', 1, 'more')]),
    );
    const rows = await db.read.checkpointWrite.findMany({ where: { threadId: 't2' }, orderBy: { idx: 'asc' } });
    expect(rows).toEqual([write('t2', -1, 'new'), write('t2', 0, 'first run'), write('t2', 1, 'more')]);
  });

  it('should delete the checkpoints and writes of the threads named, and nothing else', async () => {
    const { db } = database;
    for (const thread of ['t3', 't4', 't5'])
      await db.write(async (tx) => {
        await db.checkpointLog.putCheckpoints(tx, [checkpoint(thread, 'c1', thread)]);
        await db.checkpointLog.putWrites(tx, [write(thread, 0, thread)]);
      });
    await db.write((tx) => db.checkpointLog.deleteThreads(tx, ['t3', 't4']));
    const threads = { threadId: { in: ['t3', 't4', 't5'] } };
    expect((await db.read.checkpoint.findMany({ where: threads })).map((r) => r.threadId)).toEqual(['t5']);
    expect((await db.read.checkpointWrite.findMany({ where: threads })).map((r) => r.threadId)).toEqual(['t5']);
  });

  it('should write nothing when the transaction rolls back', async () => {
    const { db } = database;
    await expect(
      db.write(async (tx) => {
        await db.checkpointLog.putCheckpoints(tx, [checkpoint('t6', 'c1', 'gone')]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await db.read.checkpoint.count({ where: { threadId: 't6' } })).toBe(0);
  });
  it('should read a thread’s latest checkpoint, or one by id, and its writes as Prisma does, as soon as they commit', async () => {
    const { db } = database;
    expect(await db.checkpointLog.latest('t4', '')).toBeNull();
    await db.write(async (tx) => {
      await db.checkpointLog.putCheckpoints(tx, [checkpoint('t4', 'c1', 'one'), checkpoint('t4', 'c2', '二')]);
      await db.checkpointLog.putWrites(tx, [write('t4', 0, 'a'), write('t4', 1, 'b')]);
    });
    const fromPrisma = await db.read.checkpoint.findFirst({
      where: { threadId: 't4', namespace: '' },
      orderBy: { checkpointId: 'desc' },
    });
    const { createdAt: _c, ...latest } = fromPrisma!;
    expect(await db.checkpointLog.latest('t4', '')).toEqual(latest);
    expect(await db.checkpointLog.latest('t4', '')).toEqual(checkpoint('t4', 'c2', '二'));
    expect(await db.checkpointLog.latest('t4', '', 'c1')).toEqual(checkpoint('t4', 'c1', 'one'));
    expect(await db.checkpointLog.latest('t4', '', 'c9')).toBeNull();
    expect(await db.checkpointLog.latest('t4', 'other')).toBeNull();
    const writes = await db.checkpointLog.writesOf('t4', '', 'c1');
    expect(writes.sort((a, b) => a.idx - b.idx)).toEqual([write('t4', 0, 'a'), write('t4', 1, 'b')]);
    expect(await db.checkpointLog.writesOf('t4', '', 'c2')).toEqual([]);
    // A later commit is seen by the next read.
    await db.write((tx) => db.checkpointLog.putCheckpoints(tx, [checkpoint('t4', 'c3', 'three')]));
    expect((await db.checkpointLog.latest('t4', ''))?.checkpointId).toBe('c3');
  });
});
