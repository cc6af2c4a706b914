import type { DependencyRecord, Language, NodeRecord } from '../api/types.ts';

/** The nodes `nodeId` still waits for: its dependencies that are not concluded yet. */
export function openDependencies(
  nodeId: string,
  nodes: Record<string, NodeRecord>,
  dependencies: Iterable<DependencyRecord>,
): NodeRecord[] {
  const open: NodeRecord[] = [];
  for (const dep of dependencies) {
    if (dep.nodeId !== nodeId) continue;
    const target = nodes[dep.dependsOnId];
    if (target && target.status !== 'COMPLETED') open.push(target);
  }
  return open;
}

/** For every node that waits, the questions of its dependencies that are not concluded yet, in map order. */
export function waitingQuestions(
  nodes: Record<string, NodeRecord>,
  dependencies: Iterable<DependencyRecord>,
): Map<string, string[]> {
  const waiting = new Map<string, string[]>();
  for (const dep of dependencies) {
    const target = nodes[dep.dependsOnId];
    if (!target || target.status === 'COMPLETED') continue;
    waiting.set(dep.nodeId, [...(waiting.get(dep.nodeId) ?? []), target.question]);
  }
  return waiting;
}

/** The questions a blocked node waits for, quoted and listed the way the person's language lists them. */
export function quotedList(questions: readonly string[], language: Language): string {
  return questions.map((q) => `“${q}”`).join(language === 'zh' ? '、' : ', ');
}
