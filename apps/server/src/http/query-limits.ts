import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { type DocumentNode, GraphQLError, getOperationAST } from 'graphql';
import type { Plugin, YogaServerOptions } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';

/**
 * Limits on what one GraphQL document may ask for, checked before anything runs. GraphQL Armor's defaults
 * (depth 6, 15 aliases, 50 directives, 1,000 tokens, static cost 5,000), with fragments flattened for depth and
 * cost: a fragment is a name for a selection, not a level of work (counted as levels, the workspace's union
 * selections would need a depth of 12). Field suggestions ("Did you mean …") are blocked when the schema is
 * hidden. Every refusal names its limit ("Query depth limit of 6 exceeded, found 9.").
 */
export function armorPlugin(options: { hideSchema: boolean }): Plugin {
  return EnvelopArmorPlugin({
    maxDepth: { n: 6, flattenFragments: true },
    maxAliases: { n: 15 },
    maxDirectives: { n: 50 },
    maxTokens: { n: 1000 },
    costLimit: { maxCost: 5000, flattenFragments: true },
    blockFieldSuggestion: { enabled: options.hideSchema },
  }) as Plugin;
}

/**
 * A list as long as a whole map (its nodes, its dependencies): its selection counts a hundred times. Armor's cost
 * knows no list sizes, so `map { nodes { map { nodes { id } } } }` — a million nodes on a 1,000-node map — looks
 * cheap to it; with these multipliers it costs 10,202 and is refused.
 */
export const MAP_SIZED_LIST = { field: 1, multiplier: 100 } as const;

/**
 * Pothos complexity: every field costs 1 and a list multiplies what it selects by 10 (by 100 for
 * {@link MAP_SIZED_LIST}); a query may cost 5,000 (the workspace's map query costs about 3,300).
 */
export const QUERY_COMPLEXITY = {
  defaultComplexity: 1,
  defaultListMultiplier: 10,
  limit: { complexity: 5000 },
  complexityError: (kind: string, result: { complexity: number; depth: number; breadth: number }) => {
    const found = kind === 'Depth' ? result.depth : kind === 'Breadth' ? result.breadth : result.complexity;
    return new GraphQLError(`Query complexity limit of 5000 exceeded, found ${found} (lists count by their size).`, {
      extensions: { code: 'QUERY_TOO_COMPLEX' },
    });
  },
};

/** The error of a query that ran out of time. */
export const timeLimitError = (ms: number) =>
  new GraphQLError(`Execution time limit of ${ms} ms exceeded.`, { extensions: { code: 'TIMEOUT' } });

/** What {@link useExecutionTimeout} leaves on the context: resolvers stop starting work after it. */
export interface Deadline {
  deadline?: { at: number; ms: number };
}

const TIMED_OUT = Symbol('timed out');

/**
 * Times out queries (mutations always finish: they commit or not as a whole; subscriptions are long by nature).
 * The client gets one error naming the limit when the time is up; the execution itself stops at its next object or
 * list field (see `stopAtDeadline`), so a runaway query does not keep a core busy after its answer. Must come after
 * the graphql-jit plugin, whose executor it wraps.
 */
export function useExecutionTimeout(ms: number): Plugin {
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      if (getOperationAST(args.document, args.operationName)?.operation !== 'query') return;
      setExecuteFn(async (execution) => {
        (execution.contextValue as Deadline).deadline = { at: Date.now() + ms, ms };
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
          timer = setTimeout(() => resolve(TIMED_OUT), ms);
        });
        try {
          const result = await Promise.race([executeFn(execution), timeout]);
          return result === TIMED_OUT ? { errors: [timeLimitError(ms)] } : result;
        } finally {
          clearTimeout(timer);
        }
      });
    },
  };
}

/** Heap bytes a parsed document costs per character of its text (its AST and source), with a margin over the measure. */
export const PARSED_BYTES_PER_CHARACTER = 16;

/**
 * Yoga's cache of parsed documents (and of parse errors), bounded by the memory the documents take rather than by
 * their number: Yoga's default keeps 1,000 documents, however large each is (1,000 documents of 1 MB would be
 * gigabytes). Least recently used first out; the compiled-query cache is bounded the same way.
 */
export function boundedParserCache(
  maxBytes = 16 * 1024 * 1024,
): NonNullable<YogaServerOptions<object, object>['parserAndValidationCache']> {
  const bounded = <T extends object>() => {
    const cache = new LRUCache<string, T>({
      maxSize: maxBytes,
      sizeCalculation: (_value, key) => Math.max(1, key.length * PARSED_BYTES_PER_CHARACTER),
    });
    return { get: (key: string) => cache.get(key), set: (key: string, value: T) => void cache.set(key, value), cache };
  };
  return { documentCache: bounded<DocumentNode>(), errorCache: bounded<object>() };
}
