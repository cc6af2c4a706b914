import { AsyncLocalStorageProviderSingleton } from '@langchain/core/singletons';

/**
 * Runs `fn` outside any LangChain run context. A run started from code that itself runs inside a graph
 * step (a bottom-up conclusion started when a child concluded) would otherwise inherit that step's config
 * through AsyncLocalStorage, be treated as a subgraph, and see its own `interrupt()` thrown at it.
 */
export function detached<R>(fn: () => R): R {
  const storage = AsyncLocalStorageProviderSingleton.getInstance() as { exit?: (callback: () => R) => R };
  return typeof storage.exit === 'function' ? storage.exit(fn) : fn();
}
