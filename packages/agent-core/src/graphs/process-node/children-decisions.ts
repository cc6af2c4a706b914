import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import { planProposalDependencies } from '../../dependencies/plan-proposal-dependencies.ts';
import type { ProposedSubQuestion } from '../../schemas/sub-question-proposal.ts';
import type { AgentDeps } from '../shared/agent-deps.ts';
import { CHOSEN_BY_PERSON, recordDecision } from './record-decision.ts';
import type { ProcessNodeStateType } from './state.ts';

const NO_DEPENDENCIES = {
  en: 'no sub-question needs another’s conclusion first: they can be worked on in any order',
  zh: '没有子问题需要先得到另一个子问题的结论：可以按任意顺序处理',
} as const;

/** Sub-questions as a decision shows them: what each asks and aims at. */
const asked = (subQuestions: readonly ProposedSubQuestion[]) =>
  subQuestions.map(({ key, question, goal }) => ({ key, question, goal }));

/** Dependencies as a decision shows them: which question waits for which, in the person's words. */
function dependenciesOf(subQuestions: readonly ProposedSubQuestion[]) {
  const question = new Map(subQuestions.map((q) => [q.key, q.question]));
  return planProposalDependencies(subQuestions).edges.map((e) => ({
    question: question.get(e.nodeId)!,
    dependsOn: question.get(e.dependsOnId)!,
  }));
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Records the sub-questions and the dependencies between them that became the node's children, each as a
 * decision of the run: the model's (with its rationale), or the person's when they edited it at review, with
 * what the model had proposed.
 */
export async function recordChildrenDecisions(
  deps: AgentDeps,
  state: ProcessNodeStateType,
  config: LangGraphRunnableConfig,
): Promise<void> {
  const final = state.proposal!.subQuestions;
  const proposed = state.proposedSubQuestions ?? final;
  const rationale = state.proposal!.rationale;
  const round = state.proposalRound;
  const subQuestions = { subQuestions: asked(final) };
  const proposedSubQuestions = { subQuestions: asked(proposed) };
  const editedQuestions = !same(subQuestions, proposedSubQuestions);
  await recordDecision(
    deps,
    config,
    state.nodeId,
    {
      kind: 'SUB_QUESTIONS',
      choice: subQuestions,
      reason: editedQuestions ? CHOSEN_BY_PERSON[state.language] : rationale,
      decidedBy: editedQuestions ? 'PERSON' : 'MODEL',
      overridden: editedQuestions ? proposedSubQuestions : null,
    },
    'createChildren',
    round,
    'subQuestions',
  );
  const dependencies = { dependencies: dependenciesOf(final) };
  const proposedDependencies = { dependencies: dependenciesOf(proposed) };
  const editedDependencies = !same(dependencies, proposedDependencies);
  await recordDecision(
    deps,
    config,
    state.nodeId,
    {
      kind: 'DEPENDENCIES',
      choice: dependencies,
      reason: editedDependencies
        ? CHOSEN_BY_PERSON[state.language]
        : dependencies.dependencies.length
          ? rationale
          : NO_DEPENDENCIES[state.language],
      decidedBy: editedDependencies ? 'PERSON' : 'MODEL',
      overridden: editedDependencies ? proposedDependencies : null,
    },
    'createChildren',
    round,
    'dependencies',
  );
}
