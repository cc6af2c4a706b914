/** The minimal view of a node that progress needs. */
export interface ProgressNode {
  status: string;
  /** Set while the node's conclusion is out of date. */
  staleReason?: string | null;
}

/** How far a map is: its nodes, the concluded ones, the rest, and how many of the rest are out of date. */
export interface Progress {
  total: number;
  /** Concluded, with a current conclusion. */
  concluded: number;
  /** Everything else: not concluded yet, or concluded but out of date. */
  open: number;
  /** Concluded once, but out of date since (counted among `open`). */
  stale: number;
}

/**
 * Counts a map's progress. A node counts as concluded only when it is COMPLETED and its conclusion is current;
 * a conclusion out of date is open work again. The server's `Map.progress` and the web's header count alike.
 */
export function progressOf(nodes: Iterable<ProgressNode>): Progress {
  let total = 0;
  let concluded = 0;
  let stale = 0;
  for (const node of nodes) {
    total += 1;
    if (node.staleReason) stale += 1;
    else if (node.status === 'COMPLETED') concluded += 1;
  }
  return { total, concluded, open: total - concluded, stale };
}
