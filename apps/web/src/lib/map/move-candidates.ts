import type { MapNode } from '../api/results.ts';

/**
 * The nodes `nodeId` could be moved under: any other node but its present parent, filtered by `search`
 * (case-insensitive). Its own descendants stay in the list: the server refuses those moves with a reason,
 * so the person sees why rather than wondering where a node went.
 */
export function moveCandidates(nodeId: string, nodes: Record<string, MapNode>, search = ''): MapNode[] {
  const parentId = nodes[nodeId]?.parentId;
  const needle = search.trim().toLowerCase();
  return Object.values(nodes)
    .filter((node) => node.id !== nodeId && node.id !== parentId)
    .filter((node) => !needle || node.question.toLowerCase().includes(needle))
    .sort((a, b) => a.question.localeCompare(b.question));
}
