import { subtreeIds, treeOrder } from '@thinkingmap/map-graph';
import { AgentError } from '../errors/agent-error.ts';
import type { CriticScope, CriticStorePort, DismissedFinding, SuggestionInput } from '../ports/critic-store-port.ts';
import type { Idempotent } from '../ports/store-port.ts';
import type { InMemoryStore } from './in-memory-store.ts';

/** A {@link CriticStorePort} over an {@link InMemoryStore}, for graph tests: every node is at version 1. */
export class InMemoryCriticStore implements CriticStorePort {
  /** Suggestions the person dismissed, newest first: what `readScope` gives the critic. */
  readonly dismissed: DismissedFinding[] = [];
  /** Suggestions posted, in order, with their run. */
  readonly posted: (SuggestionInput & { runId: string; id: string })[] = [];
  private readonly keys = new Map<string, string[]>();

  constructor(private readonly store: InMemoryStore) {}

  async readScope(mapId: string, nodeId: string | null): Promise<CriticScope> {
    const map = await this.store.readMap(mapId);
    const all = [...this.store.nodes.values()].filter((n) => n.mapId === mapId);
    if (nodeId && !all.some((n) => n.id === nodeId)) throw new AgentError('NODE_NOT_FOUND', `node ${nodeId} not found`);
    const inScope = new Set(nodeId ? subtreeIds(all, nodeId) : all.map((n) => n.id));
    const ordered = treeOrder(all)
      .map((p) => p.node)
      .filter((n) => inScope.has(n.id));
    const dependencies = this.store.dependencies.filter((d) => inScope.has(d.nodeId) && inScope.has(d.dependsOnId));
    const nodes = ordered.map((n) => ({ ...n, version: 1 }));
    return { map, rootId: nodeId, nodes, dependencies, dismissed: [...this.dismissed] };
  }

  async postSuggestions(runId: string, suggestions: SuggestionInput[], options: Idempotent = {}): Promise<string[]> {
    const key = options.idempotencyKey;
    if (key && this.keys.has(key)) return this.keys.get(key)!;
    const ids = suggestions.map((s) => {
      const id = `suggestion-${this.posted.length + 1}`;
      this.posted.push({ ...s, runId, id });
      return id;
    });
    if (key) this.keys.set(key, ids);
    return ids;
  }
}

/** A critic store over `store` (see {@link InMemoryCriticStore}). */
export const criticStore = (store: InMemoryStore) => new InMemoryCriticStore(store);
