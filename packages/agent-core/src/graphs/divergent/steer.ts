import { NO_STEERING } from '../../ports/divergent-steering-port.ts';
import type { DivergentDeps } from './divergent-deps.ts';
import type { PlannedTask } from './schemas.ts';
import type { DivergentStateType } from './state.ts';

/** A task the person added, with the steering id that marks it used. */
export type AddedTask = PlannedTask & { addedId?: string };

/**
 * The person's steering as a step sees it: whether to stop, the threshold in force, the feedback and added
 * tasks not used yet (each is used once: the step that uses them returns their ids in `usedSteering`).
 */
export async function readSteering(deps: DivergentDeps, state: DivergentStateType) {
  const steering = deps.steering ? await deps.steering.read() : NO_STEERING;
  const used = new Set(state.usedSteering);
  return {
    stop: state.stopRequested || steering.stop,
    threshold: steering.threshold ?? state.threshold,
    skipped: new Set(steering.skipped),
    feedback: steering.feedback.filter((f) => !used.has(f.id)),
    tasks: steering.tasks.filter((t) => !used.has(t.id)).map(({ id, ...t }): AddedTask => ({ ...t, addedId: id })),
  };
}
