import { describe, expect, it, vi } from 'vitest';
import { approximateBytes, MapReadCache } from './map-read-cache.ts';

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
    const cache = new MapReadCache(Math.round(2.5 * approximateBytes(rows(100))));
    const loader = vi.fn(async () => rows(100));
    for (const id of ['a', 'b']) await cache.load({ id, lastSeq: 1 }, 'nodes', loader);
    await cache.load({ id: 'a', lastSeq: 1 }, 'nodes', loader);
    await cache.load({ id: 'c', lastSeq: 1 }, 'nodes', loader);
    expect(loader).toHaveBeenCalledTimes(3);
    await cache.load({ id: 'a', lastSeq: 1 }, 'nodes', loader);
    expect(loader).toHaveBeenCalledTimes(3);
    await cache.load({ id: 'b', lastSeq: 1 }, 'nodes', loader);
    expect(loader).toHaveBeenCalledTimes(4);
    expect(cache.held()).toEqual({ entries: 2, bytes: 2 * approximateBytes(rows(100)) });
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
