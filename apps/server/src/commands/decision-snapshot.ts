import { DecidedBy, type Decision, DecisionKind } from '@thinkingmap/db';
import { z } from 'zod';
import { isoDate, jsonOf, someJson } from './event-snapshots.ts';

/** A decision of a run as events carry it: every field its GraphQL type exposes, dates as ISO strings. */
export const decisionSnapshot = z.object({
  id: z.string(),
  runId: z.string(),
  mapId: z.string(),
  nodeId: z.string().nullable(),
  kind: z.enum(DecisionKind),
  choice: someJson,
  reason: z.string(),
  confidence: z.number().nullable(),
  decidedBy: z.enum(DecidedBy),
  overridden: z.json().nullable(),
  createdAt: isoDate,
});
export type DecisionSnapshot = z.infer<typeof decisionSnapshot>;

/** A decision row as events carry it. */
export function toDecisionSnapshot(decision: Decision): DecisionSnapshot {
  return {
    id: decision.id,
    runId: decision.runId,
    mapId: decision.mapId,
    nodeId: decision.nodeId,
    kind: decision.kind,
    choice: someJson.parse(decision.choice),
    reason: decision.reason,
    confidence: decision.confidence,
    decidedBy: decision.decidedBy,
    overridden: jsonOf(decision.overridden),
    createdAt: decision.createdAt.toISOString(),
  };
}
