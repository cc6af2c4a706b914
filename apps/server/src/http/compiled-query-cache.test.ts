import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { COMPILED_BYTES_PER_CHARACTER, compilesWithJit, createCompiledQueryCache } from './compiled-query-cache.ts';

const compiled = () => ({ query: () => ({ data: null }), stringify: JSON.stringify });
const documentOf = (characters: number, tag: string) => `#${tag}`.padEnd(characters, ' ');

describe('compiled query cache', () => {
  it('should keep compiled queries until their estimated bytes exceed the bound, dropping the least recent', () => {
    const cache = createCompiledQueryCache(3 * 100 * COMPILED_BYTES_PER_CHARACTER);
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((tag) => documentOf(100, tag)) as [string, string, string, string];
    const entries = new Map([a, b, c, d].map((doc) => [doc, compiled()]));
    cache.set(a, entries.get(a)!);
    cache.set(b, entries.get(b)!);
    cache.set(c, entries.get(c)!);
    expect(cache.get(a)).toBe(entries.get(a));
    cache.set(d, entries.get(d)!);
    expect(cache.get(b)).toBeUndefined();
    expect([a, c, d].map((doc) => cache.get(doc))).toEqual([a, c, d].map((doc) => entries.get(doc)));
  });

  it('should count a long document as much as many short ones', () => {
    const cache = createCompiledQueryCache(1_000 * COMPILED_BYTES_PER_CHARACTER);
    const short = Array.from({ length: 5 }, (_, i) => documentOf(100, `s${i}`));
    for (const doc of short) cache.set(doc, compiled());
    cache.set(documentOf(800, 'long'), compiled());
    expect(short.filter((doc) => cache.get(doc))).toHaveLength(2);
  });

  it('should not keep a document larger than the whole bound', () => {
    const cache = createCompiledQueryCache(100 * COMPILED_BYTES_PER_CHARACTER);
    cache.set(documentOf(101, 'huge'), compiled());
    expect(cache.get(documentOf(101, 'huge'))).toBeUndefined();
  });
});

describe('which executions are compiled', () => {
  it.each([
    ['a query', 'query { viewer { id } }', true],
    ['a mutation', 'mutation M { deleteMap(id: "m") { __typename } } fragment F on User { id }', true],
    ['a subscription', 'subscription { mapEvents(mapId: "m") { __typename } }', false],
    ['a document of several operations', 'query A { viewer { id } } query B { viewer { name } }', false],
    ['a fragment alone', 'fragment F on User { id }', false],
  ])('should compile %s: %s', (_name, source, expected) => {
    expect(compilesWithJit({ document: parse(source) })).toBe(expected);
  });
});
