import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import { detectLanguage } from '../../../language/detect-language.ts';
import { understandProblemMessages } from '../../../prompts/understand-problem.ts';
import { UNDERSTANDING_READABLE, UnderstandingSchema } from '../../../schemas/understanding.ts';
import type { AgentDeps } from '../../shared/agent-deps.ts';
import { runRefOf } from '../../shared/run-config.ts';
import type { UnderstandProblemStateType, UnderstandProblemUpdate } from '../state.ts';
import { UNDERSTAND_PROBLEM_GRAPH } from '../understand-problem-graph-name.ts';

/**
 * Restates problem, goal and constraints with the model, keeping what the person gave (title, goal,
 * constraints) and applying the person's correction when there is one. The offline model restates from the
 * same facts: the person's own fields on the first round, the previous restatement after a correction.
 */
export function restateProblem(deps: AgentDeps) {
  return async (
    state: UnderstandProblemStateType,
    config: LangGraphRunnableConfig,
  ): Promise<UnderstandProblemUpdate> => {
    const language = state.language ?? detectLanguage(state.problem);
    const given = { title: state.title, problem: state.problem, goal: state.goal, constraints: state.constraints };
    const result = await deps.model.structured({
      agent: 'understand',
      schema: UnderstandingSchema,
      schemaName: 'problem_understanding',
      readable: UNDERSTANDING_READABLE,
      messages: understandProblemMessages(language, given, state.understanding, state.correction),
      offlineHint: {
        language,
        question: state.problem,
        understanding: state.understanding ?? given,
        ...(state.correction ? { reply: state.correction } : {}),
      },
      signal: config.signal,
      onToken: (text) => deps.events.tokensStreamed(runRefOf(config, UNDERSTAND_PROBLEM_GRAPH), text),
    });
    return { language, understanding: result.value, correction: null, rounds: state.rounds + 1 };
  };
}
