import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { fileRedisChannel } from '../../tests/helpers/redis-channel.ts';
import { redisAnswers, sharedRedisUrl as redisUrl } from '../../tests/helpers/redis-reachable.ts';
import type { MapEvent } from '../commands/map-event.ts';
import { createEventBus, type EventBus, feedTopic, type LiveItem, mapTopic, RESYNC } from './event-bus.ts';

/** A small event of `mapId` with sequence `seq`, owned by `ownerId` at position `feedSeq` of their feed. */
function tokens(mapId: string, seq: number, ownerId = 'owner', feedSeq = seq): MapEvent {
  const payload = { runId: 'run', nodeId: null, text: `t${seq}` };
  return { type: 'AgentTokens', payload, mapId, seq, createdAt: new Date().toISOString(), ownerId, feedSeq };
}

describe('in-process event bus', () => {
  it("should deliver a map's events only to that map's subscribers, in order, and every map's to its owner's feed", async () => {
    const bus = createEventBus({ logError: (error) => expect.unreachable(String(error)) });
    const seen: string[] = [];
    bus.listen('a', (event) => seen.push(`a${event.seq}`));
    bus.listen('b', (event) => seen.push(`b${event.seq}`));
    const feed = bus.subscribe(feedTopic('owner'));
    const first = feed.next();
    bus.publish([tokens('a', 1), tokens('a', 2)]);
    bus.publish([tokens('c', 1, 'owner', 3)]);
    bus.publish([tokens('d', 1, 'someone else', 1)]);
    await expect.poll(() => seen).toEqual(['a1', 'a2']);
    const places = (item: IteratorResult<LiveItem>) =>
      item.value === RESYNC ? item.value : item.value?.map((event: MapEvent) => [event.mapId, event.feedSeq]);
    expect(places(await first)).toEqual([
      ['a', 1],
      ['a', 2],
    ]);
    expect(places(await feed.next())).toEqual([['c', 3]]);
    await feed.return();
  });

  it('should tell every batch to the delivery listeners before publish returns, and stop when told', () => {
    const bus = createEventBus({ logError: (error) => expect.unreachable(String(error)) });
    const told: number[] = [];
    const stop = bus.onDelivered((events) => told.push(...events.map((event) => event.seq)));
    bus.publish([tokens('a', 1), tokens('a', 2)]);
    // Before the publisher (a command) goes on to answer: a read after its response knows the change.
    expect(told).toEqual([1, 2]);
    expect(bus.live()).toBe(true);
    stop();
    bus.publish([tokens('a', 3)]);
    expect(told).toEqual([1, 2]);
  });

  it('should log a failing listener and still deliver to the others', async () => {
    const errors: unknown[] = [];
    const bus = createEventBus({ logError: (error) => errors.push(error) });
    const seen: number[] = [];
    bus.listen('a', () => {
      throw new Error('listener broke');
    });
    bus.listen('a', (event) => seen.push(event.seq));
    expect(() => bus.publish([tokens('a', 1)])).not.toThrow();
    await expect.poll(() => seen).toEqual([1]);
    expect(errors).toEqual([new Error('listener broke')]);
  });

  it('should count subscribers and forget one that stopped, with the topic it was the last to follow', async () => {
    const bus = createEventBus({ logError: () => {} });
    const stopA = bus.listen('a', () => {});
    const stopB = bus.listen('a', () => {});
    bus.listen('b', () => {});
    await expect.poll(() => bus.listenerCount()).toBe(3);
    expect(bus.listenerCount('a')).toBe(2);
    stopA();
    stopA();
    await expect.poll(() => bus.listenerCount('a')).toBe(1);
    stopB();
    await expect.poll(() => [bus.listenerCount('a'), bus.listenerCount()]).toEqual([0, 1]);
    expect([...bus.followed().keys()]).toEqual([mapTopic('b')]);
  });

  it('should keep at most a thousand batches for a subscriber that does not read, dropping the oldest', async () => {
    const bus = createEventBus({ logError: (error) => expect.unreachable(String(error)) });
    const live = bus.subscribe(mapTopic('a'));
    const first = live.next();
    for (let seq = 1; seq <= 1_500; seq++) bus.publish([tokens('a', seq)]);
    const seqs: number[] = [];
    for (let result = await first; !result.done; ) {
      if (result.value !== RESYNC) seqs.push(...result.value.map((event) => event.seq));
      if (seqs.at(-1) === 1_500) break;
      result = await live.next();
    }
    // The first was taken by the waiting `next()`; of the rest, the newest thousand are kept (the stream reading
    // them fills the jump from 1 to 501 from the log).
    expect(seqs).toEqual([1, ...Array.from({ length: 1_000 }, (_, i) => 501 + i)]);
    expect(bus.followed().get(mapTopic('a'))).toBe(1_500);
    await live.return();
    expect(bus.listenerCount()).toBe(0);
  });

  it('should tell the subscribers of a topic to read the log again when asked', async () => {
    const bus = createEventBus({ logError: (error) => expect.unreachable(String(error)) });
    const live = bus.subscribe(mapTopic('a'));
    const first = live.next();
    await expect.poll(() => bus.listenerCount('a')).toBe(1);
    bus.resync([mapTopic('a')]);
    expect((await first).value).toBe(RESYNC);
    await live.return();
  });
});

const reachable = await redisAnswers();
if (!reachable && process.env.CI) throw new Error(`Redis is required in CI but ${redisUrl} is unreachable`);
if (!reachable) console.warn(`\n  ⚠ SKIPPED: Redis event bus tests (${redisUrl} unreachable)\n`);

describe.skipIf(!reachable)('event bus over Redis', () => {
  const buses: EventBus[] = [];
  afterAll(async () => {
    await Promise.all(buses.map((bus) => bus.close()));
  });

  it("should deliver one instance's events to the other's listeners, and each local event once", async () => {
    const [one, two] = [0, 1].map(() => {
      const bus = createEventBus({
        redisUrl,
        channel: fileRedisChannel,
        logError: (error) => expect.unreachable(String(error)),
      });
      buses.push(bus);
      return bus;
    }) as [EventBus, EventBus];
    await untilSubscribed(one, two);
    await untilSubscribed(two, one);
    const mapId = randomUUID();
    const local: number[] = [];
    const remote: number[] = [];
    one.listen(mapId, (event) => local.push(event.seq));
    two.listen(mapId, (event) => remote.push(event.seq));
    await expect.poll(() => [one.listenerCount(mapId), two.listenerCount(mapId)]).toEqual([1, 1]);
    one.publish([tokens(mapId, 1), tokens(mapId, 2)]);
    await expect.poll(() => local).toEqual([1, 2]);
    await expect.poll(() => remote).toEqual([1, 2]);
    // The Redis copy of its own events comes back to `one` too; it must not deliver them a second time.
    two.publish([tokens(mapId, 3)]);
    await expect.poll(() => local).toEqual([1, 2, 3]);
    expect(remote).toEqual([1, 2, 3]);
  });
});

/** Resolves once `to` hears what `from` publishes: its Redis subscription has taken effect. */
async function untilSubscribed(from: EventBus, to: EventBus): Promise<void> {
  const probe = randomUUID();
  let heard = false;
  const stop = to.listen(probe, () => {
    heard = true;
  });
  let seq = 0;
  await expect
    .poll(() => {
      from.publish([tokens(probe, ++seq)]);
      return heard;
    })
    .toBe(true);
  stop();
}
