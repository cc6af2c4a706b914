import { z } from 'zod';
import { QuestionKind } from '../../../domain/enums.ts';
import { askPerson } from '../../shared/ask-person.ts';
import type { DivergentDeps } from '../divergent-deps.ts';
import { DIVERGENT_NOTES } from '../notes.ts';
import { ReviewDivergentTasksReplySchema } from '../schemas.ts';
import type { DivergentStateType, DivergentUpdate } from '../state.ts';
import { readSteering } from '../steer.ts';

/** What the gate accepts from the server: a reply, or the notice that the question expired (asked again). */
const GateAnswer = z.union([ReviewDivergentTasksReplySchema, z.object({ expired: z.literal(true) })]);

/**
 * With `reviewEachLevel`, pauses before a level's task nodes exist: the person approves the list (edited or
 * not) or stops the session. Only a valid approve or stop passes; anything else (an expiry included) asks
 * again, so the gate never passes without the person. Its only side effect is the interrupt.
 */
export function reviewTasks(deps: DivergentDeps) {
  return async (state: DivergentStateType): Promise<DivergentUpdate> => {
    const level = state.level + 1;
    for (;;) {
      const raw = askPerson(
        {
          kind: QuestionKind.REVIEW_DIVERGENT_TASKS,
          question: DIVERGENT_NOTES.reviewQuestion(state.language, level),
          context: {
            nodeId: state.nodeId,
            level,
            tasks: state.plan,
            rationale: state.planRationale,
            dropped: state.dropped.filter((d) => d.level === level),
            maxParallel: state.maxParallel,
          },
        },
        GateAnswer,
      );
      if ('expired' in raw) continue;
      if (raw.action === 'stop') return { stopRequested: true, plan: [] };
      // Tasks the person added while the list waited join it, first; so does a stop.
      const steering = await readSteering(deps, state);
      if (steering.stop) return { stopRequested: true, plan: [] };
      const tasks = [...steering.tasks, ...(raw.tasks ?? state.plan)];
      return { plan: tasks.slice(0, state.maxParallel), usedSteering: steering.tasks.map((t) => t.addedId!) };
    }
  };
}
