import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import { detectLanguage } from '../../../language/detect-language.ts';
import { understandProblemMessages } from '../../../prompts/understand-problem.ts';
import { UNDERSTANDING_READABLE, UnderstandingSchema } from '../../../schemas/understanding.ts';
import type { AgentDeps } from '../../shared/agent-deps.ts';
import { runRefOf } from '../../shared/run-config.ts';
import type { UnderstandProblemStateType, UnderstandProblemUpdate } from '../state.ts';
import { UNDERSTAND_PROBLEM_GRAPH } from '../understand-problem-graph-name.ts';

/** Restates problem, goal and constraints with the model, applying the person's correction when there is one. */
export function restateProblem(deps: AgentDeps) {
  return async (
    state: UnderstandProblemStateType,
    config: LangGraphRunnableConfig,
  ): Promise<UnderstandProblemUpdate> => {
    const language = state.language ?? detectLanguage(state.problem);
    const result = await deps.model.structured({
      agent: 'understand',
      schema: UnderstandingSchema,
      schemaName: 'problem_understanding',
      readable: UNDERSTANDING_READABLE,
      messages: understandProblemMessages(language, state.problem, state.understanding, state.correction),
      offlineHint: { language, question: state.problem, ...(state.correction ? { reply: state.correction } : {}) },
      signal: config.signal,
      onToken: (text) => deps.events.tokensStreamed(runRefOf(config, UNDERSTAND_PROBLEM_GRAPH), text),
    });
    return { language, understanding: result.value, correction: null, rounds: state.rounds + 1 };
  };
}
