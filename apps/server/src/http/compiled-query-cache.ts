import type { JITCache } from '@envelop/graphql-jit';
import { type ExecutionArgs, Kind, OperationTypeNode } from 'graphql';
import { LRUCache } from 'lru-cache';

type CompiledQuery = NonNullable<ReturnType<JITCache['get']>>;

/**
 * Heap bytes a compiled query costs per character of its document (closures and generated code; the measure is in
 * docs/performance.md), so the bound below is in real memory.
 */
export const COMPILED_BYTES_PER_CHARACTER = 32;

/**
 * A cache of graphql-jit compiled queries keyed by document text, bounded by the memory the compiled code
 * takes (estimated from the document's length), least recently used first out. Clients send a handful of
 * distinct documents; a client sending endless distinct ones costs at most `maxBytes`.
 */
export function createCompiledQueryCache(maxBytes = 16 * 1024 * 1024): JITCache {
  const cache = new LRUCache<string, CompiledQuery>({
    maxSize: maxBytes,
    sizeCalculation: (_compiled, document) => Math.max(1, document.length * COMPILED_BYTES_PER_CHARACTER),
  });
  return { get: (document) => cache.get(document), set: (document, compiled) => void cache.set(document, compiled) };
}

/**
 * Which executions graphql-jit compiles: single-operation queries and mutations only.
 *
 * A compiled subscription hands its resolver the operation's variables instead of its arguments (literal
 * arguments, variables of other names and default values are lost, an alias crashes: graphql-jit #183, envelop
 * #2008), so subscriptions run through graphql-js. A document with several operations runs through graphql-js
 * too: the compiled code is cached by document, not by the operation a request names.
 */
export function compilesWithJit(args: Pick<ExecutionArgs, 'document'>): boolean {
  let operations = 0;
  for (const definition of args.document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    if (definition.operation === OperationTypeNode.SUBSCRIPTION || ++operations > 1) return false;
  }
  return operations === 1;
}
