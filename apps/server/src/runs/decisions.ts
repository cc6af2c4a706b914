import { DecidedBy, DecisionKind, isJsonObject, jsonColumn, type RunLog, type Tx } from '@thinkingmap/db';
import { z } from 'zod';
import { toDecisionSnapshot } from '../commands/decision-snapshot.ts';
import { checkJson, id, parseInput } from '../commands/input.ts';
import type { Emit } from '../commands/mutate-map.ts';

const jsonObject = z.record(z.string(), z.unknown());

export const decisionInput = z.object({
  runId: id,
  nodeId: id.nullable(),
  kind: z.enum(DecisionKind),
  choice: jsonObject,
  reason: z.string().trim().min(1).max(4_000),
  confidence: z.number().min(0).max(1).nullish(),
  decidedBy: z.enum(DecidedBy),
  overridden: jsonObject.nullish(),
  key: z.string().min(1).max(500),
});

/** A checked decision of a run (see {@link recordDecision}). */
export type DecisionRecord = z.infer<typeof decisionInput>;

/** Checks a decision before it is queued; throws ValidationError on bad input. */
export function parseDecision(raw: unknown): DecisionRecord {
  const decision = parseInput(decisionInput, raw);
  checkJson('choice', decision.choice);
  if (decision.overridden) checkJson('overridden', decision.overridden);
  return decision;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Records a decision of a run inside a command's transaction on its map and emits DecisionRecorded: once per
 * run and key (a step re-run records nothing twice). A person's choice that does not say what it overrode
 * overrides the model's latest choice of that kind on the node when it chose otherwise (its first field differs). A run or node gone from the
 * map meanwhile is skipped: this never fails the command that carries it.
 */
export async function recordDecision(
  log: RunLog,
  tx: Tx,
  emit: Emit,
  mapId: string,
  input: DecisionRecord,
): Promise<void> {
  const { runId, key, nodeId } = input;
  // The run with its node and whether it decided under this key, in one read.
  const run = await log.runDecision(tx, runId, key);
  if (run?.mapId !== mapId || run.decided) return;
  // The run's own node is in its map while it exists (a deleted node leaves its runs without one).
  if (nodeId && nodeId !== run.nodeId && (await log.nodeState(tx, nodeId))?.mapId !== mapId) return;
  let overridden = input.overridden ?? null;
  if (!overridden && input.decidedBy === 'PERSON' && nodeId) {
    const latest = await log.latestModelChoice(tx, nodeId, input.kind);
    const main = Object.keys(input.choice)[0];
    if (isJsonObject(latest) && main && !same(latest[main], input.choice[main])) overridden = latest;
  }
  const decision = await tx.decision.create({
    data: {
      runId,
      mapId,
      nodeId,
      kind: input.kind,
      choice: jsonColumn(input.choice),
      reason: input.reason,
      confidence: input.confidence ?? null,
      decidedBy: input.decidedBy,
      ...(overridden ? { overridden: jsonColumn(overridden) } : {}),
      key,
    },
  });
  emit({ type: 'DecisionRecorded', payload: { decision: toDecisionSnapshot(decision) } });
}
