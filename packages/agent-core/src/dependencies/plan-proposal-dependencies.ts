import { type DependencyEdge, findCycle } from '@thinkingmap/map-graph';
import type { ProposedSubQuestion } from '../schemas/sub-question-proposal.ts';

/** A proposal's dependency edges between keys, with what had to be dropped and why. */
export interface ProposalDependencies {
  edges: DependencyEdge[];
  dropped: { from: string; to: string; reason: 'unknown' | 'self' | 'cycle' }[];
}

/**
 * Turns the `dependsOn` keys of proposed sub-questions into edges the store will accept: unknown keys and
 * self-references are dropped, and an edge that would close a cycle (checked with `findCycle`) is dropped.
 * Models get this wrong; plain code repairs it instead of failing the run.
 */
export function planProposalDependencies(subQuestions: readonly ProposedSubQuestion[]): ProposalDependencies {
  const keys = new Set(subQuestions.map((q) => q.key));
  const edges: DependencyEdge[] = [];
  const dropped: ProposalDependencies['dropped'] = [];
  for (const q of subQuestions) {
    for (const to of new Set(q.dependsOn)) {
      if (!keys.has(to)) dropped.push({ from: q.key, to, reason: 'unknown' });
      else if (to === q.key) dropped.push({ from: q.key, to, reason: 'self' });
      else if (findCycle(edges, { nodeId: q.key, dependsOnId: to })) dropped.push({ from: q.key, to, reason: 'cycle' });
      else edges.push({ nodeId: q.key, dependsOnId: to });
    }
  }
  return { edges, dropped };
}
