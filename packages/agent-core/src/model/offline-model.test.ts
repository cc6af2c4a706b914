import { describe, expect, it } from 'vitest';
import { ClarifyQuestionSchema } from '../schemas/clarify-question.ts';
import { ConclusionDraftSchema } from '../schemas/conclusion-draft.ts';
import { IntentDecisionSchema } from '../schemas/intent-decision.ts';
import { StrategyDecisionSchema } from '../schemas/strategy-decision.ts';
import { SubQuestionProposalSchema } from '../schemas/sub-question-proposal.ts';
import { ToolChoiceSchema } from '../schemas/tool-choice.ts';
import { UnderstandingSchema } from '../schemas/understanding.ts';
import { OfflineModel } from './offline-model.ts';

const model = new OfflineModel();
const hint = (extra = {}) => ({ language: 'zh' as const, question: '我该不该换工作？', ...extra });
const ask = <T>(
  agent: Parameters<OfflineModel['structured']>[0]['agent'],
  schema: import('zod').ZodType<T>,
  extra = {},
) => model.structured({ agent, schema, schemaName: agent, messages: [], offlineHint: hint(extra) });

describe('OfflineModel', () => {
  it('should say it is offline in words a person reads, naming no setting', () => {
    expect(model.offline).toBe(true);
    expect(model.label).toMatch(/offline/);
    expect(model.label).not.toMatch(/OPENAI|API_KEY|BASE_URL/);
  });

  it('should answer every agent with a schema-valid value and no tokens spent', async () => {
    for (const [agent, schema] of [
      ['understand', UnderstandingSchema],
      ['intent', IntentDecisionSchema],
      ['strategy', StrategyDecisionSchema],
      ['decompose', SubQuestionProposalSchema],
      ['conclude', ConclusionDraftSchema],
      ['clarify', ClarifyQuestionSchema],
    ] as const) {
      const result = await ask(agent, schema as import('zod').ZodType<unknown>);
      expect(result.usage).toEqual({ promptTokens: 0, completionTokens: 0 });
      expect(result.model).toBe('offline');
    }
  });

  it('should decompose a fresh root and conclude once every child is concluded', async () => {
    expect((await ask('intent', IntentDecisionSchema, { depth: 0, childCount: 0 })).value.intent).toBe('DECOMPOSE');
    expect(
      (await ask('intent', IntentDecisionSchema, { depth: 0, childCount: 3, concludedChildCount: 3 })).value.intent,
    ).toBe('CONCLUDE');
  });

  it('should label conclusions as offline drafts, in the map language, without a developer note', async () => {
    const draft = await ask('conclude', ConclusionDraftSchema);
    expect(draft.value.conclusion).toContain('【离线草稿】');
    expect(draft.value.conclusion).not.toMatch(/离线模型|OPENAI|占位/);
    const english = await model.structured({
      agent: 'conclude',
      schema: ConclusionDraftSchema,
      schemaName: 'conclusion_draft',
      messages: [],
      offlineHint: { language: 'en', question: 'Which site?', goal: 'pick one' },
    });
    expect(english.value.conclusion).toMatch(/^\[Offline draft\] On "Which site\?" \(goal: pick one\)/);
    expect(english.value.conclusion).not.toMatch(/offline model|placeholder|cannot think/);
  });

  it('should restate the problem, goal and constraints the person gave, in English and Chinese', async () => {
    const restate = (language: 'en' | 'zh', understanding: object, reply?: string) =>
      model.structured({
        agent: 'understand',
        schema: UnderstandingSchema,
        schemaName: 'problem_understanding',
        messages: [],
        offlineHint: { language, question: 'x', understanding: understanding as never, ...(reply ? { reply } : {}) },
      });
    const given = {
      title: 'Laptop',
      problem: 'Which laptop should I buy?',
      goal: 'buy by Friday',
      constraints: ['under 2000 EUR'],
    };
    expect((await restate('en', given)).value).toEqual(given);
    const corrected = await restate('en', given, 'The goal is buy by Monday. Add constraint: 16 GB of memory');
    expect(corrected.value).toEqual({
      ...given,
      goal: 'buy by Monday',
      constraints: ['under 2000 EUR', '16 GB of memory'],
    });
    expect(JSON.stringify(corrected.value)).not.toMatch(/noted/);
    const zhGiven = { title: '', problem: '我该不该换工作？', goal: '', constraints: ['年底前'] };
    const zhFirst = (await restate('zh', zhGiven)).value;
    expect(zhFirst).toMatchObject({ title: '我该不该换工作？', problem: '我该不该换工作？', constraints: ['年底前'] });
    expect(zhFirst.goal).toContain('我该不该换工作');
    const zhCorrected = (await restate('zh', zhFirst, '目标是三个月内做决定。加一个约束：不降薪')).value;
    expect(zhCorrected).toEqual({ ...zhFirst, goal: '三个月内做决定', constraints: ['年底前', '不降薪'] });
    expect(JSON.stringify(zhCorrected)).not.toMatch(/补充：/);
  });

  it('should choose no extra knowledge tool', async () => {
    const result = await model.structured({
      agent: 'explore',
      schema: ToolChoiceSchema,
      schemaName: 'tool_choice',
      messages: [],
      offlineHint: hint(),
    });
    expect(result.value).toMatchObject({ tool: null, arguments: {} });
  });

  it('should be deterministic', async () => {
    const a = await ask('decompose', SubQuestionProposalSchema);
    const b = await ask('decompose', SubQuestionProposalSchema);
    expect(a.value).toEqual(b.value);
    expect(a.value.subQuestions[2]?.dependsOn).toEqual(['q1', 'q2']);
  });
});
