import { describe, expect, it } from 'vitest';
import { ClarifyQuestionSchema } from '../schemas/clarify-question.ts';
import { ConclusionDraftSchema } from '../schemas/conclusion-draft.ts';
import { IntentDecisionSchema } from '../schemas/intent-decision.ts';
import { StrategyDecisionSchema } from '../schemas/strategy-decision.ts';
import { SubQuestionProposalSchema } from '../schemas/sub-question-proposal.ts';
import { ToolChoiceSchema } from '../schemas/tool-choice.ts';
import { UnderstandingSchema } from '../schemas/understanding.ts';
import { MeteredModel } from './metered-model.ts';
import { OfflineModel } from './offline-model.ts';

const model = new OfflineModel();
const hint = (extra = {}) => ({ language: 'zh' as const, question: '我该不该换工作？', ...extra });
const ask = <T>(
  agent: Parameters<OfflineModel['structured']>[0]['agent'],
  schema: import('zod').ZodType<T>,
  extra = {},
) => model.structured({ agent, schema, schemaName: agent, messages: [], offlineHint: hint(extra) });

describe('OfflineModel', () => {
  it('should say it is offline', () => {
    expect(model.offline).toBe(true);
    expect(model.label).toMatch(/offline/);
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

  it('should label conclusions as offline, in the map language', async () => {
    const draft = await ask('conclude', ConclusionDraftSchema);
    expect(draft.value.conclusion).toContain('【离线模型】');
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

describe('MeteredModel', () => {
  it('should add up usage and refuse calls once the budget is spent, with BUDGET_EXHAUSTED', async () => {
    const spending = {
      offline: false,
      label: 'x',
      chat: async () => ({ text: 'x', model: 'm', usage: { promptTokens: 6, completionTokens: 4 } }),
      structured: async () => {
        throw new Error('unused');
      },
    };
    const seen: number[] = [];
    const metered = new MeteredModel(spending, { budget: 15, onUsage: (u) => seen.push(u.promptTokens) });
    await metered.chat({ agent: 'intent', messages: [] });
    await metered.chat({ agent: 'intent', messages: [] });
    await expect(metered.chat({ agent: 'intent', messages: [] })).rejects.toMatchObject({ code: 'BUDGET_EXHAUSTED' });
    expect(metered.usage).toEqual({ promptTokens: 12, completionTokens: 8 });
    expect(seen).toEqual([6, 6]);
  });
});
