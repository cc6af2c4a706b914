import type { MapChange } from './map-changes.ts';

/**
 * The run steps that carry out what the person decided at a gate: the sub-questions they approved, the
 * conclusion they accepted, the answer they gave, the problem they confirmed, the divergent tasks they approved.
 */
const PERSON_DECIDED_STEPS: ReadonlySet<string> = new Set([
  'createChildren',
  'saveConclusion',
  'recordAnswer',
  'createRootNode',
  'createTasks',
]);

/** Whether a run wrote a change because the person decided it (see PERSON_DECIDED_STEPS). */
export const decidedByPerson = (change: MapChange) =>
  change.runId !== null && change.step !== null && PERSON_DECIDED_STEPS.has(change.step);

/** Whether a change is the person's own: made by them, or by a run carrying out what they decided at a gate. */
export const byPerson = (change: MapChange) => change.runId === null || decidedByPerson(change);

/** One change of the person's as undo and redo see it: the commands of one decision, oldest first. */
export type PersonUnit = [MapChange, ...MapChange[]];

/**
 * The person's changes, oldest first, each a unit for undo and redo: a change they made, or all the changes a
 * run made in a row at one step carrying out one decision of theirs (the approved sub-questions are created one
 * command each, then their dependencies).
 */
export function personUnits(changes: readonly MapChange[]): PersonUnit[] {
  const units: PersonUnit[] = [];
  for (const change of changes) {
    if (!byPerson(change)) continue;
    const last = units.at(-1);
    const same = last && decidedByPerson(change) && last[0].runId === change.runId && last[0].step === change.step;
    if (same) last.push(change);
    else units.push([change]);
  }
  return units;
}
