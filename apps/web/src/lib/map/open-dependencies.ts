import { readiness } from '@thinkingmap/map-graph';
import type { Language, MapDependency, MapNode } from '../api/results.ts';

/** The nodes `nodeId` still waits for: its dependencies that are not concluded yet (map-graph's readiness). */
export function openDependencies(
  nodeId: string,
  nodes: Record<string, MapNode>,
  dependencies: Iterable<MapDependency>,
): MapNode[] {
  return waitingFor(nodes, dependencies).get(nodeId) ?? [];
}

/** For every node that waits, the questions of its dependencies that are not concluded yet, in map order. */
export function waitingQuestions(
  nodes: Record<string, MapNode>,
  dependencies: Iterable<MapDependency>,
): Map<string, string[]> {
  const waiting = new Map<string, string[]>();
  for (const [nodeId, open] of waitingFor(nodes, dependencies))
    waiting.set(
      nodeId,
      open.map((node) => node.question),
    );
  return waiting;
}

/** Each node with a dependency, and the dependencies it still waits for (none: it is ready). */
function waitingFor(nodes: Record<string, MapNode>, dependencies: Iterable<MapDependency>): Map<string, MapNode[]> {
  const targets = new Map<string, MapNode[]>();
  for (const dep of dependencies) {
    const target = nodes[dep.dependsOnId];
    if (target) targets.set(dep.nodeId, [...(targets.get(dep.nodeId) ?? []), target]);
  }
  const waiting = new Map<string, MapNode[]>();
  for (const [nodeId, dependsOn] of targets) {
    const state = readiness(dependsOn);
    if (!state.ready) waiting.set(nodeId, state.openDependencies);
  }
  return waiting;
}

/** The questions a blocked node waits for, quoted and listed the way the person's language lists them. */
export function quotedList(questions: readonly string[], language: Language): string {
  return questions.map((q) => `“${q}”`).join(language === 'zh' ? '、' : ', ');
}
