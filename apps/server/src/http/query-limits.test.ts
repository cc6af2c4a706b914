import { parse } from 'graphql';
import { createSchema, createYoga } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import {
  boundedParserCache,
  PARSED_BYTES_PER_CHARACTER,
  type RunTimeBudget,
  useRunTimeBudget,
} from './query-limits.ts';
import { boundAtRunTime } from './run-time-bound.ts';

/** A query that never finishes by itself, and a counter of the object fields resolved. */
function slowSchema() {
  const calls = { item: 0 };
  const never = new Promise<string>(() => {});
  const schema = boundAtRunTime(
    createSchema({
      typeDefs: 'type Item { id: ID! } type Query { slow: String item: Item } type Mutation { slow: String }',
      resolvers: {
        Query: {
          slow: () => never,
          item: () => {
            calls.item += 1;
            return { id: '1' };
          },
        },
        Mutation: { slow: () => 'done' },
      },
    }),
  );
  return { schema, calls };
}

describe('execution time limit', () => {
  it('should answer a query that runs past the limit with one error naming it', async () => {
    const yoga = createYoga({
      schema: slowSchema().schema,
      plugins: [useRunTimeBudget({ timeoutMs: 50, maxObjects: 100 })],
      logging: false,
    });
    const response = await yoga.fetch('http://localhost/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ slow }' }),
    });
    expect(await response.json()).toMatchObject({
      errors: [{ message: 'Execution time limit of 50 ms exceeded.', extensions: { code: 'TIMEOUT' } }],
    });
  });

  it('should refuse to start an object field once the deadline has passed', () => {
    const { schema, calls } = slowSchema();
    const item = schema.getQueryType()!.getFields().item!;
    const resolve = item.resolve!;
    const info = {} as Parameters<typeof resolve>[3];
    const budget = (at: number, ms: number): { budget: RunTimeBudget } => ({
      budget: { at, ms, maxObjects: 100, objects: 0 },
    });
    expect(resolve({}, {}, budget(Date.now() + 60_000, 60_000), info)).toEqual({ id: '1' });
    expect(() => resolve({}, {}, budget(Date.now() - 1, 10), info)).toThrow('Execution time limit of 10 ms exceeded.');
    expect(calls.item).toBe(1);
  });

  it('should leave mutations alone: they commit as a whole or not at all', async () => {
    const yoga = createYoga({
      schema: slowSchema().schema,
      plugins: [useRunTimeBudget({ timeoutMs: 1, maxObjects: 100 })],
      logging: false,
    });
    const response = await yoga.fetch('http://localhost/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'mutation { slow }' }),
    });
    expect(await response.json()).toEqual({ data: { slow: 'done' } });
  });
});

/** Items that list themselves again: `{ items { items { id } } }` resolves 10 + 100 objects. */
function listSchema() {
  const calls = { items: 0 };
  const items = Array.from({ length: 10 }, (_, i) => ({ id: String(i) }));
  const schema = boundAtRunTime(
    createSchema({
      typeDefs: 'type Item { id: ID! items: [Item!]! } type Query { items: [Item!]! }',
      resolvers: {
        Query: { items: async () => items },
        Item: {
          items: () => {
            calls.items += 1;
            return items;
          },
        },
      },
    }),
  );
  return { schema, calls };
}

describe('objects resolved', () => {
  const post = async (yoga: ReturnType<typeof createYoga>, query: string) => {
    const response = await yoga.fetch('http://localhost/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    return response.json();
  };

  it('should answer a query within the limit whatever its lists multiply to statically', async () => {
    const yoga = createYoga({
      schema: listSchema().schema,
      plugins: [useRunTimeBudget({ timeoutMs: 10_000, maxObjects: 110 })],
      logging: false,
    });
    const answer = await post(yoga, '{ items { items { id } } }');
    expect(answer.errors).toBeUndefined();
    expect(answer.data.items).toHaveLength(10);
  });

  it('should answer a query resolving more objects than the limit with one error naming it, and stop resolving', async () => {
    const { schema, calls } = listSchema();
    const yoga = createYoga({
      schema,
      plugins: [useRunTimeBudget({ timeoutMs: 10_000, maxObjects: 50 })],
      logging: false,
    });
    const answer = await post(yoga, '{ items { items { items { id } } } }');
    expect(answer).toEqual({
      errors: [
        {
          message: 'Object limit of 50 exceeded: one answer may hold at most 50 objects.',
          extensions: { code: 'OBJECT_LIMIT' },
        },
      ],
    });
    // 10 + 10 lists of 10 would be 110 objects at the second level alone: the fifth list passes 50.
    expect(calls.items).toBeLessThan(20);
  });
});

describe('parsed-document cache', () => {
  it('should hold at most its size in bytes of documents, however many distinct ones arrive', () => {
    const maxBytes = 1024 * 1024;
    const { documentCache } = boundedParserCache(maxBytes) as unknown as {
      documentCache: { set(key: string, value: object): void; cache: { calculatedSize: number; size: number } };
    };
    const document = parse('{ viewer { id } }');
    for (let i = 0; i < 1_000; i++) documentCache.set(`{ viewer { id } } # ${i} ${'x'.repeat(4_000)}`, document);
    expect(documentCache.cache.calculatedSize).toBeLessThanOrEqual(maxBytes);
    expect(documentCache.cache.size).toBe(Math.floor(maxBytes / (4_025 * PARSED_BYTES_PER_CHARACTER)));
  });
});
