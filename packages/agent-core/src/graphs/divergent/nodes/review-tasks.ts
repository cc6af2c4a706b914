import { z } from 'zod';
import { QuestionKind } from '../../../domain/enums.ts';
import { askPerson } from '../../shared/ask-person.ts';
import type { DivergentDeps } from '../divergent-deps.ts';
import { DIVERGENT_NOTES } from '../notes.ts';
import { ReviewDivergentTasksReplySchema } from '../schemas.ts';
import { selectLevelTasks } from '../select-tasks.ts';
import type { DivergentStateType, DivergentUpdate } from '../state.ts';
import { readSteering } from '../steer.ts';

/** What the gate accepts from the server: a reply, or the notice that the question expired (asked again). */
const GateAnswer = z.union([ReviewDivergentTasksReplySchema, z.object({ expired: z.literal(true) })]);

/**
 * With `reviewEachLevel`, pauses before a level's task nodes exist: the person approves the list (edited or
 * not) or stops the session. Only a valid approve or stop passes; anything else (an expiry included) asks
 * again, so the gate never passes without the person. The approved list goes through the planner's selection
 * (`selectLevelTasks`): tasks over `maxParallel` are listed as dropped, never cut unseen (the server refuses a
 * skill it does not offer before the reply is accepted). Its only side effect is the interrupt.
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
      const listed = raw.tasks ?? state.plan;
      const { run, dropped } = selectLevelTasks(
        steering.tasks,
        listed,
        state.maxParallel,
        deps.skills,
        state.language,
        level,
      );
      // The person's order stands: priority only decides which of the listed tasks are dropped.
      const plan = [...run.filter((t) => !listed.includes(t)), ...listed.filter((t) => run.includes(t))];
      return { plan, dropped, usedSteering: steering.tasks.map((t) => t.addedId!) };
    }
  };
}
