import type { PendingQuestion } from '../api/results.ts';

/** Where a question is answered: its map, with its node open (the question leads the node's panel). */
export function questionHref(question: Pick<PendingQuestion, 'mapId' | 'nodeId'>): string {
  const map = `/maps/${encodeURIComponent(question.mapId)}`;
  return question.nodeId ? `${map}?node=${encodeURIComponent(question.nodeId)}` : map;
}
