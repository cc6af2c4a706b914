import type { Language } from '../api/types.ts';

const STEPS: Record<string, { en: string; zh: string }> = {
  restateProblem: { en: 'restating the problem', zh: '复述问题' },
  askConfirmation: { en: 'asking you to confirm', zh: '请你确认' },
  createRootNode: { en: 'creating the root question', zh: '创建根问题' },
  collectContext: { en: 'gathering context', zh: '收集上下文' },
  checkDependencies: { en: 'checking dependencies', zh: '检查依赖' },
  recognizeIntent: { en: 'deciding what to do', zh: '判断处理方式' },
  decideStrategy: { en: 'choosing a strategy', zh: '选择拆解策略' },
  searchKnowledge: { en: 'searching knowledge', zh: '检索资料' },
  proposeSubQuestions: { en: 'proposing sub-questions', zh: '提出子问题' },
  reviewProposal: { en: 'waiting for your review', zh: '等待你审阅' },
  createChildren: { en: 'creating sub-questions', zh: '创建子问题' },
  draftConclusion: { en: 'drafting a conclusion', zh: '起草结论' },
  reviewConclusion: { en: 'waiting for your feedback', zh: '等待你的反馈' },
  saveConclusion: { en: 'saving the conclusion', zh: '保存结论' },
  formulateQuestion: { en: 'formulating a question', zh: '构思问题' },
  waitForAnswer: { en: 'waiting for your answer', zh: '等待你的回答' },
  recordAnswer: { en: 'recording your answer', zh: '记录你的回答' },
};

/** A graph step's name in words (`proposeSubQuestions` → "proposing sub-questions"); unknown steps are spelled out. */
export function stepLabel(step: string, language: Language): string {
  const known = STEPS[step];
  if (known) return known[language];
  return step.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}
