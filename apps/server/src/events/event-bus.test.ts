import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { fileRedisChannel } from '../../tests/helpers/redis-channel.ts';
import { redisAnswers, sharedRedisUrl as redisUrl } from '../../tests/helpers/redis-reachable.ts';
import { createEventBus, type EventBus } from './event-bus.ts';
import type { MapEvent } from './map-event.ts';

/** A small event of `mapId` with sequence `seq`. */
function tokens(mapId: string, seq: number): MapEvent {
  const payload = { runId: 'run', nodeId: null, text: `t${seq}` };
  return { type: 'AgentTokens', payload, mapId, seq, createdAt: new Date().toISOString() };
}

describe('in-process event bus', () => {
  it("should deliver a map's events only to that map's listeners, in order", () => {
    const bus = createEventBus({ logError: (error) => expect.unreachable(String(error)) });
    const seen: string[] = [];
    bus.listen('a', (event) => seen.push(`a${event.seq}`));
    bus.listen('b', (event) => seen.push(`b${event.seq}`));
    bus.publish([tokens('a', 1), tokens('a', 2)]);
    expect(seen).toEqual(['a1', 'a2']);
  });

  it('should log a failing listener and still deliver to the others', () => {
    const errors: unknown[] = [];
    const bus = createEventBus({ logError: (error) => errors.push(error) });
    const seen: number[] = [];
    bus.listen('a', () => {
      throw new Error('listener broke');
    });
    bus.listen('a', (event) => seen.push(event.seq));
    expect(() => bus.publish([tokens('a', 1)])).not.toThrow();
    expect(seen).toEqual([1]);
    expect(errors).toEqual([new Error('listener broke')]);
  });

  it('should count listeners and forget a stopped one', () => {
    const bus = createEventBus({ logError: () => {} });
    const stopA = bus.listen('a', () => {});
    const stopB = bus.listen('a', () => {});
    bus.listen('b', () => {});
    expect(bus.listenerCount()).toBe(3);
    expect(bus.listenerCount('a')).toBe(2);
    stopA();
    stopA();
    expect(bus.listenerCount('a')).toBe(1);
    stopB();
    expect([bus.listenerCount('a'), bus.listenerCount()]).toEqual([0, 1]);
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
    one.publish([tokens(mapId, 1), tokens(mapId, 2)]);
    expect(local).toEqual([1, 2]);
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
