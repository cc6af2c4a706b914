/** Two sub-questions, the second after the first (a `sub_question_proposal` answer). */
export const TWO_STAGE_PROPOSAL = {
  rationale: 'split by stage',
  subQuestions: [
    { key: 'a', question: 'What do users need?', goal: 'list needs', dependsOn: [] },
    { key: 'b', question: 'What do we build first?', goal: 'pick a slice', dependsOn: ['a'] },
  ],
};

/** The process-node agent's answers (by schema name) that split a node in {@link TWO_STAGE_PROPOSAL}'s two stages. */
export const DECOMPOSE_IN_TWO_STAGES = {
  intent_decision: () => ({ intent: 'DECOMPOSE', reason: 'too broad', confidence: 0.9 }),
  strategy_decision: () => ({
    strategy: 'SEQUENTIAL',
    factors: [{ factor: 'order', assessment: 'needs first' }],
    reason: 'stages',
  }),
  sub_question_proposal: () => TWO_STAGE_PROPOSAL,
};
