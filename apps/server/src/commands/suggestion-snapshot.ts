import { type CriticSuggestion, SuggestionKind, SuggestionStatus } from '@thinkingmap/db';
import { z } from 'zod';
import { isoDate, jsonOf } from './event-snapshots.ts';

/** A critic suggestion as events carry it: every field its GraphQL type exposes, dates as ISO strings. */
export const suggestionSnapshot = z.object({
  id: z.string(),
  mapId: z.string(),
  runId: z.string(),
  kind: z.enum(SuggestionKind),
  status: z.enum(SuggestionStatus),
  nodeIds: z.array(z.string()),
  explanation: z.string(),
  change: z.json(),
  createdAt: isoDate,
  resolvedAt: isoDate.nullable(),
});
export type SuggestionSnapshot = z.infer<typeof suggestionSnapshot>;

/** A suggestion row as events carry it. */
export function toSuggestionSnapshot(row: CriticSuggestion): SuggestionSnapshot {
  return {
    id: row.id,
    mapId: row.mapId,
    runId: row.runId,
    kind: row.kind,
    status: row.status,
    nodeIds: Array.isArray(row.nodeIds) ? row.nodeIds.map(String) : [],
    explanation: row.explanation,
    change: jsonOf(row.change),
    createdAt: row.createdAt.toISOString(),
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
  };
}
