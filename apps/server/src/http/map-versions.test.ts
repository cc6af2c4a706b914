import type { MapVersion } from '@thinkingmap/db';
import { afterEach, describe, expect, it } from 'vitest';
import type { MapEvent } from '../commands/map-event.ts';
import { createEventBus, type EventBus } from '../events/event-bus.ts';
import { MapVersions } from './map-versions.ts';

/** A committed event of map `m` with sequence number `seq`, as the bus carries it. */
const eventOf = (seq: number, type: MapEvent['type'] = 'MapUpdated', ownerId = 'owner'): MapEvent =>
  ({ type, payload: {}, mapId: 'm', seq, createdAt: `t${seq}`, ownerId, feedSeq: seq }) as unknown as MapEvent;

/** Map versions fed by a real in-process bus, over a map row the test sets, counting the row reads. */
function versionsOver(bus: EventBus) {
  const rows = new Map<string, MapVersion>([
    ['m', { ownerId: 'owner', autoRun: false, lastSeq: 3, tokensUsed: 0, updatedAt: 't3' }],
  ]);
  let reads = 0;
  const versions = new MapVersions(async (mapId) => {
    reads++;
    return rows.get(mapId) ?? null;
  }, bus);
  /** The version a request of map `m` is answered by: the one known, or the row read. */
  const current = async () => versions.known('m') ?? (await versions.read('m'));
  return { rows, versions, current, reads: () => reads };
}

describe('map versions', () => {
  let bus: EventBus;
  afterEach(() => bus?.close());
  const start = () => {
    bus = createEventBus({
      logError: (error) => {
        throw error;
      },
    });
    return versionsOver(bus);
  };

  it("should know a map's version after one row read and follow its events without reading again", async () => {
    const map = start();
    expect(map.versions.known('m')).toBeUndefined();
    expect(await map.current()).toMatchObject({ lastSeq: 3 });
    bus.publish([eventOf(4), eventOf(5)]);
    expect(map.versions.known('m')).toEqual({ ownerId: 'owner', lastSeq: 5, tokensUsed: 0, updatedAt: 't5' });
    expect(await map.current()).toMatchObject({ lastSeq: 5 });
    expect(map.reads()).toBe(1);
  });

  it('should ignore an event it already knew of, and forget the version on a gap in the events', async () => {
    const map = start();
    await map.current();
    bus.publish([eventOf(3)]);
    expect(map.versions.known('m')).toMatchObject({ lastSeq: 3 });
    bus.publish([eventOf(5)]);
    expect(map.versions.known('m')).toBeUndefined();
    map.rows.set('m', { ...map.rows.get('m')!, lastSeq: 5 });
    expect(await map.current()).toMatchObject({ lastSeq: 5 });
    expect(map.reads()).toBe(2);
  });

  it('should not keep a row read that an event of its map overtook', async () => {
    const map = start();
    const read = map.versions.read('m');
    bus.publish([eventOf(4)]);
    // The read answers its own request, but is not vouched for: the event may have committed after it.
    expect(await read).toMatchObject({ lastSeq: 3 });
    expect(map.versions.known('m')).toBeUndefined();
  });

  it("should forget a map's version on its deletion, on an event of another owner and on a row changed without an event", async () => {
    for (const [forget, label] of [
      [() => bus.publish([eventOf(4, 'MapDeleted')]), 'MapDeleted'],
      [() => bus.publish([eventOf(4, 'MapUpdated', 'someone else')]), 'another owner'],
      [() => bus.signal({ type: 'map-row-changed', mapId: 'm' }), 'the ledger'],
    ] as const) {
      const map = start();
      await map.current();
      expect(map.versions.known('m'), label).toBeDefined();
      forget();
      expect(map.versions.known('m'), label).toBeUndefined();
      await bus.close();
    }
  });

  it('should keep no version without an event feed', async () => {
    const versions = new MapVersions(async () => ({
      ownerId: 'owner',
      autoRun: false,
      lastSeq: 1,
      tokensUsed: 0,
      updatedAt: 't1',
    }));
    await versions.read('m');
    expect(versions.known('m')).toBeUndefined();
  });
});
