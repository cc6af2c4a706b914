import { parse } from 'graphql';
import { createSchema, createYoga } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { stopAtDeadline } from './deadline.ts';
import { boundedParserCache, PARSED_BYTES_PER_CHARACTER, useExecutionTimeout } from './query-limits.ts';

/** A query that never finishes by itself, and a counter of the object fields resolved. */
function slowSchema() {
  const calls = { item: 0 };
  const never = new Promise<string>(() => {});
  const schema = stopAtDeadline(
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
    const yoga = createYoga({ schema: slowSchema().schema, plugins: [useExecutionTimeout(50)], logging: false });
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
    expect(resolve({}, {}, { deadline: { at: Date.now() + 60_000, ms: 60_000 } }, info)).toEqual({ id: '1' });
    expect(() => resolve({}, {}, { deadline: { at: Date.now() - 1, ms: 10 } }, info)).toThrow(
      'Execution time limit of 10 ms exceeded.',
    );
    expect(calls.item).toBe(1);
  });

  it('should leave mutations alone: they commit as a whole or not at all', async () => {
    const yoga = createYoga({ schema: slowSchema().schema, plugins: [useExecutionTimeout(1)], logging: false });
    const response = await yoga.fetch('http://localhost/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'mutation { slow }' }),
    });
    expect(await response.json()).toEqual({ data: { slow: 'done' } });
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
