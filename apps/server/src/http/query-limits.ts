import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { type DocumentNode, GraphQLError, getOperationAST } from 'graphql';
import type { Plugin, YogaServerOptions } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';

/** The `extensions.code` of each refusal, naming the limit that stopped the request. */
export const LIMIT_CODES = {
  depth: 'DEPTH_LIMIT',
  aliases: 'ALIAS_LIMIT',
  directives: 'DIRECTIVE_LIMIT',
  tokens: 'TOKEN_LIMIT',
  objects: 'OBJECT_LIMIT',
  time: 'TIMEOUT',
  subscriptions: 'SUBSCRIPTION_LIMIT',
} as const;

/** A refusal naming its limit: the message says which and by how much, `extensions.code` says it for programs. */
export function limitError(code: (typeof LIMIT_CODES)[keyof typeof LIMIT_CODES], message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code } });
}

/** Armor reports its refusals as syntax errors ("Syntax Error: Aliases limit …"): they are not, and get their code. */
const armorRefusal =
  (code: (typeof LIMIT_CODES)[keyof typeof LIMIT_CODES]) =>
  (_context: unknown, error: GraphQLError): never => {
    throw limitError(code, error.message.replace(/^Syntax Error: /, ''));
  };

/**
 * Limits on the shape of one GraphQL document, checked before anything runs: GraphQL Armor's depth 6 (fragments
 * flattened: a fragment is a name for a selection, not a level of work), 15 aliases, 50 directives, 1,000 tokens.
 * What a query costs is bounded while it runs (see {@link useRunTimeBudget}), not estimated here: a static estimate
 * cannot know a list's length, so it refused ordinary whole-map reads and passed nothing the run-time bound would
 * not stop. Field suggestions ("Did you mean …") are blocked when the schema is hidden.
 */
export function armorPlugin(options: { hideSchema: boolean }): Plugin {
  return EnvelopArmorPlugin({
    maxDepth: { n: 6, flattenFragments: true, onReject: [armorRefusal(LIMIT_CODES.depth)] },
    maxAliases: { n: 15, onReject: [armorRefusal(LIMIT_CODES.aliases)] },
    maxDirectives: { n: 50, onReject: [armorRefusal(LIMIT_CODES.directives)] },
    maxTokens: { n: 1000, onReject: [armorRefusal(LIMIT_CODES.tokens)] },
    costLimit: { enabled: false },
    blockFieldSuggestion: { enabled: options.hideSchema },
  }) as Plugin;
}

/** The error of a query that ran out of time. */
export const timeLimitError = (ms: number) =>
  limitError(LIMIT_CODES.time, `Execution time limit of ${ms} ms exceeded.`);

/** The error of a query that resolved more objects than one answer may hold. */
export const objectLimitError = (max: number) =>
  limitError(LIMIT_CODES.objects, `Object limit of ${max} exceeded: one answer may hold at most ${max} objects.`);

/** What a query may spend while it runs: until `at` (`ms` after it started) and `maxObjects` objects resolved. */
export interface RunTimeBudget {
  at: number;
  ms: number;
  maxObjects: number;
  /** Objects resolved so far (an object field counts one, a list of objects its length). */
  objects: number;
  /** The refusal once a bound was passed: the whole answer becomes it. */
  exceeded?: GraphQLError;
}

/** What {@link useRunTimeBudget} leaves on the context: resolvers stop starting work once it is spent. */
export interface Deadline {
  budget?: RunTimeBudget;
}

/** Options of {@link useRunTimeBudget}. */
export interface RunTimeLimits {
  /** Longest a query runs (10 s). */
  timeoutMs: number;
  /** Most objects one answer holds (50,000). */
  maxObjects: number;
}

/** The defaults of {@link RunTimeLimits}. */
export const DEFAULT_RUN_TIME_LIMITS: RunTimeLimits = { timeoutMs: 10_000, maxObjects: 50_000 };

const TIMED_OUT = Symbol('timed out');

/**
 * Bounds what a query really costs while it runs: its time and the objects it resolves (counted by `boundAtRunTime`
 * in the schema's resolvers, which refuse to start once the budget is spent). A query past either bound is answered
 * with one error naming the bound and no data. Mutations always finish (they commit or not as a whole) and
 * subscriptions are long by nature: neither is bounded here. Must come after the graphql-jit plugin, whose executor
 * it wraps. No maintained plugin counts resolved objects (Armor's and Pothos' costs are static estimates); this is
 * the deadline check that was already on every object field, counting as well.
 */
export function useRunTimeBudget(limits: RunTimeLimits = DEFAULT_RUN_TIME_LIMITS): Plugin {
  const { timeoutMs: ms, maxObjects } = limits;
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      if (getOperationAST(args.document, args.operationName)?.operation !== 'query') return;
      setExecuteFn(async (execution) => {
        const budget: RunTimeBudget = { at: Date.now() + ms, ms, maxObjects, objects: 0 };
        (execution.contextValue as Deadline).budget = budget;
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
          timer = setTimeout(() => resolve(TIMED_OUT), ms);
        });
        try {
          const result = await Promise.race([executeFn(execution), timeout]);
          if (result === TIMED_OUT) return { errors: [timeLimitError(ms)] };
          return budget.exceeded ? { errors: [budget.exceeded] } : result;
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
