/** The minimal view of a node that readiness needs. */
export interface ReadinessNode {
  id: string;
  question: string;
  status: string;
}

/** Whether a node may proceed, and if not, which of its dependencies are still open. */
export type Readiness<N extends ReadinessNode = ReadinessNode> =
  | { ready: true; openDependencies: [] }
  | { ready: false; openDependencies: N[]; reason: string };

/**
 * A node is ready when every node it depends on is completed. A blocked node names what it waits for, in
 * the person's words (the dependencies' questions).
 */
export function readiness<N extends ReadinessNode>(dependencies: readonly N[]): Readiness<N> {
  const open = dependencies.filter((dependency) => dependency.status !== 'COMPLETED');
  if (open.length === 0) return { ready: true, openDependencies: [] };
  const names = open.map((dependency) => `“${dependency.question}”`).join(', ');
  return {
    ready: false,
    openDependencies: open,
    reason: `waiting for ${open.length} open dependenc${open.length === 1 ? 'y' : 'ies'}: ${names}`,
  };
}
