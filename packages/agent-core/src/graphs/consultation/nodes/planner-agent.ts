import { isGraphBubbleUp, type LangGraphRunnableConfig } from '@langchain/langgraph';
import { plannerMessages } from '../../../prompts/consultation.ts';
import { PlannerDecisionSchema } from '../../../schemas/consultation.ts';
import type { ConsultationDeps } from '../consultation-deps.ts';
import type { ConsultationStateType, ConsultationUpdate } from '../state.ts';
import { turnFailureOf } from '../turn-failure.ts';
import { throwIfAborted } from './abort.ts';
import { messagesToCompress } from './compress-context.ts';

const PLAN_UPDATED = { en: 'Plan updated', zh: '计划已更新' } as const;

/**
 * The planner (design 003's `planner_agent`): one structured decision `{ next, askUser, record, note }` with
 * the plan it keeps (repaired once by the model port, then the turn fails visibly). A changed plan is saved
 * at once, so the person sees it while the turn goes on; what it decided to write waits for the writers. A
 * decision that arrives after the turn was interrupted is stale and dropped.
 *
 * Its first call runs beside the front agent's reply (the same super-step): a failure is therefore returned as
 * `plannerFailure`, not thrown, since LangGraph aborts the other tasks of a step when one throws and the
 * reply would be lost; an abort (the turn interrupted) is thrown as before.
 */
export function plannerAgent(deps: ConsultationDeps) {
  const decide = planOnce(deps);
  return async (state: ConsultationStateType, config: LangGraphRunnableConfig): Promise<ConsultationUpdate> => {
    try {
      return await decide(state, config);
    } catch (error) {
      if (config.signal?.aborted || isGraphBubbleUp(error)) throw error;
      return { plannerFailure: turnFailureOf(error) };
    }
  };
}

/** One planner decision, its plan saved; throws what it meets. */
function planOnce(deps: ConsultationDeps) {
  return async (state: ConsultationStateType, config: LangGraphRunnableConfig): Promise<ConsultationUpdate> => {
    throwIfAborted(config);
    const latest = [...state.messages].reverse().find((m) => m.role === 'PERSON');
    const { value } = await deps.model.structured({
      agent: 'planner',
      schema: PlannerDecisionSchema,
      schemaName: 'planner_decision',
      // Beside the reply, the compression after it has not run yet: the messages it will summarise are left out
      // now, as in the front agent's prompt (the summary so far stands for them), so the prompt stays bounded.
      messages: plannerMessages(state, new Set(messagesToCompress(state, deps))),
      offlineHint: { language: state.language, question: latest?.text ?? '' },
      signal: config.signal,
    });
    throwIfAborted(config);
    const plan = value.plan ?? state.plan;
    const currentStep = Math.min(value.currentStep ?? state.currentStep, Math.max(plan.length - 1, 0));
    const context = value.context ? { ...state.context, ...value.context } : state.context;
    const changed =
      JSON.stringify([plan, currentStep, context]) !== JSON.stringify([state.plan, state.currentStep, state.context]);
    const logs: string[] = [];
    if (changed) {
      await deps.store.savePlan(state.consultationId, { plan, currentStep, context });
      const text = `${PLAN_UPDATED[state.language]}: ${plan[currentStep] ?? ''}`.trim();
      await deps.store.log(state.consultationId, text);
      logs.push(text);
    }
    const known = new Set(state.messages.map((m) => m.id));
    const record = value.record && {
      ...value.record,
      sourceMessageId:
        value.record.sourceMessageId && known.has(value.record.sourceMessageId)
          ? value.record.sourceMessageId
          : (latest?.id ?? null),
    };
    return {
      plan,
      currentStep,
      context,
      logs,
      askUser: value.askUser,
      plannerNext: value.next,
      plannerCalls: state.plannerCalls + 1,
      pendingRecords: record ? [...state.pendingRecords, record] : state.pendingRecords,
      pendingNotes: value.note ? [...state.pendingNotes, value.note] : state.pendingNotes,
      pendingProposals: value.proposal ? [...state.pendingProposals, value.proposal] : state.pendingProposals,
    };
  };
}
