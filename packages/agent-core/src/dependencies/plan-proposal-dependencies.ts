import { type DependencyEdge, findCycle } from '@thinkingmap/map-graph';
import type { ProposedSubQuestion } from '../schemas/sub-question-proposal.ts';

/**
 * A `dependsOn` entry that cannot become an edge: a key no sub-question has, the sub-question itself, or an
 * edge that would close a cycle (`path`: the keys from `from` back to itself, as `findCycle` reports it).
 */
export interface DroppedDependency {
  from: string;
  to: string;
  reason: 'unknown' | 'self' | 'cycle';
  path?: string[];
}

/** A proposal's dependency edges between keys, with what had to be dropped and why. */
export interface ProposalDependencies {
  edges: DependencyEdge[];
  dropped: DroppedDependency[];
}

/**
 * Turns the `dependsOn` keys of proposed sub-questions into edges the store will accept: unknown keys and
 * self-references are dropped, and an edge that would close a cycle (checked with `findCycle`) is dropped.
 * Models get this wrong; plain code repairs it instead of failing the run, and what it dropped is shown to the
 * person with the proposal. A person's own edits are refused instead (the server's reply check).
 */
export function planProposalDependencies(subQuestions: readonly ProposedSubQuestion[]): ProposalDependencies {
  const keys = new Set(subQuestions.map((q) => q.key));
  const edges: DependencyEdge[] = [];
  const dropped: ProposalDependencies['dropped'] = [];
  for (const q of subQuestions) {
    for (const to of new Set(q.dependsOn)) {
      const edge = { nodeId: q.key, dependsOnId: to };
      const cycle = keys.has(to) && to !== q.key ? findCycle(edges, edge) : null;
      if (!keys.has(to)) dropped.push({ from: q.key, to, reason: 'unknown' });
      else if (to === q.key) dropped.push({ from: q.key, to, reason: 'self', path: [q.key, q.key] });
      else if (cycle) dropped.push({ from: q.key, to, reason: 'cycle', path: cycle });
      else edges.push(edge);
    }
  }
  return { edges, dropped };
}
