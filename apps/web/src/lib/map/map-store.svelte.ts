import { AgentActivity } from '../agents/agent-activity.svelte.ts';
import type { MapDependency, MapEvent, MapFields, MapNode, NodeDetail } from '../api/results.ts';
import { applyToDetail } from './apply-to-detail.ts';

/** A map with its nodes and dependencies, as the WORKSPACE_MAP query returns it. */
export type MapSnapshot = MapFields & { nodes: readonly MapNode[]; dependencies: readonly MapDependency[] };

/** What {@link MapStore.apply} did with an event. */
export type ApplyOutcome = 'applied' | 'duplicate' | 'gap';

/** Told of each applied event, with the node it changed as it was before (for node events). */
export type AppliedListener = (event: MapEvent, before: MapNode | undefined) => void;

/**
 * One map in the browser: its fields, nodes, dependencies and the panels' node details, kept current by
 * applying the map's events in sequence. Events at or below `lastSeq` are ignored (a resumed subscription
 * may repeat them); an event beyond `lastSeq + 1` is a gap and is not applied.
 */
export class MapStore {
  map = $state.raw<MapFields | null>(null);
  nodes = $state.raw<Record<string, MapNode>>({});
  dependencies = $state.raw<Record<string, MapDependency>>({});
  details = $state.raw<Record<string, NodeDetail>>({});
  lastSeq = $state(0);
  /** The sequence number the snapshot was loaded at. */
  loadedSeq = $state(0);
  deleted = $state(false);
  /** Runs, steps, streamed text and questions of the map's agents. */
  readonly agents = new AgentActivity();
  /** Events applied since loading (tests and the status bar read it). */
  appliedCount = $state(0);
  #listeners = new Set<AppliedListener>();

  /** Listens to every applied event; returns the function that stops listening. */
  listen(listener: AppliedListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Replaces everything with a freshly loaded snapshot. */
  load(snapshot: MapSnapshot): void {
    const { nodes, dependencies, ...map } = snapshot;
    this.map = map;
    this.nodes = Object.fromEntries(nodes.map((node) => [node.id, node]));
    this.dependencies = Object.fromEntries(dependencies.map((dep) => [dep.id, dep]));
    this.details = {};
    this.lastSeq = snapshot.lastSeq;
    this.loadedSeq = snapshot.lastSeq;
    this.appliedCount = 0;
    this.deleted = false;
  }

  /** Applies one event of the map's log, in order. */
  apply(event: MapEvent): ApplyOutcome {
    if (event.seq <= this.lastSeq) return 'duplicate';
    if (event.seq > this.lastSeq + 1) return 'gap';
    const before = 'node' in event && event.node ? this.nodes[event.node.id] : undefined;
    this.#applyChange(event);
    this.lastSeq = event.seq;
    if (this.map) this.map = { ...this.map, lastSeq: event.seq };
    this.appliedCount += 1;
    for (const listener of this.#listeners) listener(event, before);
    return 'applied';
  }

  /** Puts a node the API returned (a mutation's result), unless a newer version is already here. */
  upsertNode(node: MapNode): void {
    const current = this.nodes[node.id];
    if (current && current.version > node.version) return;
    this.nodes = { ...this.nodes, [node.id]: { ...current, ...node } };
    const detail = this.details[node.id];
    if (detail) this.details = { ...this.details, [node.id]: { ...detail, ...node } };
  }

  /** Adds a dependency the API returned (idempotent). */
  upsertDependency(dep: MapDependency): void {
    this.dependencies = { ...this.dependencies, [dep.id]: dep };
  }

  /** Keeps a node's panel details (from the NODE query); later events keep them current. */
  setDetail(detail: NodeDetail): void {
    this.details = { ...this.details, [detail.id]: detail };
    this.upsertNode(detail);
  }

  /** The dependencies of `nodeId` (what it waits for). */
  dependenciesOf(nodeId: string): MapDependency[] {
    return Object.values(this.dependencies).filter((dep) => dep.nodeId === nodeId);
  }

  /** The dependencies on `nodeId` (what waits for it). */
  dependentsOf(nodeId: string): MapDependency[] {
    return Object.values(this.dependencies).filter((dep) => dep.dependsOnId === nodeId);
  }

  #applyChange(event: MapEvent): void {
    switch (event.__typename) {
      case 'NodeCreated':
      case 'NodeUpdated':
      case 'NodeConcluded':
      case 'NodeStale':
        this.upsertNode(event.node);
        return;
      case 'NodeDeleted': {
        const gone = new Set(event.nodeIds);
        const goneDeps = new Set(event.dependencyIds);
        this.nodes = Object.fromEntries(Object.entries(this.nodes).filter(([id]) => !gone.has(id)));
        this.dependencies = Object.fromEntries(
          Object.entries(this.dependencies).filter(
            ([id, dep]) => !goneDeps.has(id) && !gone.has(dep.nodeId) && !gone.has(dep.dependsOnId),
          ),
        );
        this.details = Object.fromEntries(Object.entries(this.details).filter(([id]) => !gone.has(id)));
        return;
      }
      case 'DependencyAdded':
        this.upsertDependency(event.dependency);
        return;
      case 'DependencyRemoved': {
        const { [event.dependency.id]: _removed, ...rest } = this.dependencies;
        this.dependencies = rest;
        return;
      }
      case 'MapUpdated':
        if (this.map) this.map = { ...this.map, ...event.map };
        return;
      case 'MapDeleted':
        this.deleted = true;
        return;
      case 'MessagePosted':
      case 'MessagesChanged':
      case 'ContextUpdated':
      case 'ConversationCleared': {
        const detail = event.nodeId ? this.details[event.nodeId] : undefined;
        if (detail) this.details = { ...this.details, [detail.id]: applyToDetail(detail, event) };
        return;
      }
      case 'RunStarted':
      case 'AgentStep':
      case 'AgentTokens':
      case 'AgentQuestion':
      case 'QuestionResolved':
      case 'RunFinished':
      case 'RunFailed':
      case 'RunWaitingForDependencies':
      case 'DecisionRecorded':
        this.agents.apply(event);
        return;
      default:
        // An event type this client does not know yet: its sequence number still counts.
        return;
    }
  }
}
