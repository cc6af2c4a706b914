import { describe, expect, it, vi } from 'vitest';
import { approximateBytes, keptBytes, MapReadCache } from './map-read-cache.ts';

const rows = (n: number, tag = 'row') => Array.from({ length: n }, (_, i) => `${tag} ${i}`);

describe('map read cache', () => {
  it('should serve a read again while the map is at the same or an older sequence', async () => {
    const cache = new MapReadCache();
    const loader = vi.fn(async () => rows(3));
    const first = await cache.load({ id: 'm', lastSeq: 4 }, 'nodes', loader);
    expect(await cache.load({ id: 'm', lastSeq: 4 }, 'nodes', loader)).toBe(first);
    expect(await cache.load({ id: 'm', lastSeq: 3 }, 'nodes', loader)).toBe(first);
    expect(loader).toHaveBeenCalledTimes(1);
  });

  it('should read again once the map has a newer event, without any invalidation message', async () => {
    const cache = new MapReadCache();
    await cache.load({ id: 'm', lastSeq: 4 }, 'nodes', async () => rows(3, 'old'));
    expect(await cache.load({ id: 'm', lastSeq: 5 }, 'nodes', async () => rows(3, 'new'))).toEqual(rows(3, 'new'));
    expect(await cache.load({ id: 'm', lastSeq: 5 }, 'nodes', async () => rows(3, 'newer'))).toEqual(rows(3, 'new'));
  });

  it('should share one load between concurrent reads and keep reads of other keys and maps apart', async () => {
    const cache = new MapReadCache();
    const loader = vi.fn(async () => rows(2));
    const [a, b] = await Promise.all([
      cache.load({ id: 'm', lastSeq: 1 }, 'nodes', loader),
      cache.load({ id: 'm', lastSeq: 1 }, 'nodes', loader),
    ]);
    expect(a).toBe(b);
    expect(loader).toHaveBeenCalledTimes(1);
    await cache.load({ id: 'm', lastSeq: 1 }, 'dependencies', loader);
    await cache.load({ id: 'other', lastSeq: 1 }, 'nodes', loader);
    expect(loader).toHaveBeenCalledTimes(3);
  });

  it('should not keep a failed load', async () => {
    const cache = new MapReadCache();
    await expect(cache.load({ id: 'm', lastSeq: 1 }, 'nodes', () => Promise.reject(new Error('down')))).rejects.toThrow(
      'down',
    );
    expect(await cache.load({ id: 'm', lastSeq: 1 }, 'nodes', async () => rows(1))).toEqual(rows(1));
  });

  it('should drop the least recently used reads once the bytes kept exceed the bound', async () => {
    const weight = keptBytes('a\nnodes', rows(100));
    const cache = new MapReadCache(Math.round(2.5 * weight));
    const loader = vi.fn(async () => rows(100));
    for (const id of ['a', 'b']) await cache.load({ id, lastSeq: 1 }, 'nodes', loader);
    await cache.load({ id: 'a', lastSeq: 1 }, 'nodes', loader);
    await cache.load({ id: 'c', lastSeq: 1 }, 'nodes', loader);
    expect(loader).toHaveBeenCalledTimes(3);
    await cache.load({ id: 'a', lastSeq: 1 }, 'nodes', loader);
    expect(loader).toHaveBeenCalledTimes(3);
    await cache.load({ id: 'b', lastSeq: 1 }, 'nodes', loader);
    expect(loader).toHaveBeenCalledTimes(4);
    expect(cache.held()).toEqual({ entries: 2, bytes: 2 * weight });
  });

  it('should weigh each read’s key and entry with its rows, so many small reads with long keys stay within the bound', async () => {
    // A whole-map read's key holds its query's text: a small map's few rows weigh less than it.
    const key = `nodes:${JSON.stringify({ select: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`field${i}`, true])) })}`;
    const cache = new MapReadCache(100 * 1024);
    for (let i = 0; i < 1_000; i++) await cache.load({ id: `map-${i}`, lastSeq: 1 }, key, async () => rows(1));
    const { entries, bytes } = cache.held();
    expect(bytes).toBeLessThanOrEqual(100 * 1024);
    expect(bytes).toBe(entries * keptBytes(`map-999\n${key}`, rows(1)));
    // Each entry weighs at least its key's text: the bound keeps fewer of them than rows alone would allow.
    expect(entries).toBeLessThan((100 * 1024) / (2 * key.length));
  });

  it('should weigh what rows hold, their nested relations and text included', () => {
    const node = { id: 'n1', question: 'Why?', createdAt: new Date(0), dependencies: [] as unknown[] };
    const withMessages = { ...node, messages: [{ id: 'm1', content: '我们和银行谈过了'.repeat(100) }] };
    expect(approximateBytes(withMessages)).toBeGreaterThan(approximateBytes(node) + 2 * 800);
    expect(approximateBytes([node, node])).toBeGreaterThan(2 * approximateBytes(node));
  });

  it('should keep the loaded rows, not the loader’s promise', async () => {
    const cache = new MapReadCache();
    const loaded = rows(2);
    const query = Object.assign(Promise.resolve(loaded), { query: 'held by the promise' });
    expect(await cache.load({ id: 'm', lastSeq: 1 }, 'nodes', () => query)).toBe(loaded);
    await Promise.resolve();
    const again = cache.load({ id: 'm', lastSeq: 1 }, 'nodes', () => query);
    expect(again).not.toBe(query);
    expect(await again).toBe(loaded);
  });
});
