import type { Language } from '../api/results.ts';

/**
 * What each graph step does, in words, as the continuation of "The agent is …" / "智能体正在…". Every step of
 * every graph in packages/agent-core has its words here (a test reads the graphs and fails on a step without).
 */
export const STEP_LABELS: Record<string, { en: string; zh: string }> = {
  restateProblem: { en: 'restating your problem', zh: '复述你的问题' },
  askConfirmation: { en: 'asking you to confirm', zh: '请你确认' },
  createRootNode: { en: 'creating the root question', zh: '创建根问题' },
  collectContext: { en: 'gathering the context', zh: '收集上下文' },
  checkDependencies: { en: 'checking what this question waits for', zh: '检查此问题的依赖' },
  recognizeIntent: { en: 'deciding what to do', zh: '判断处理方式' },
  decideStrategy: { en: 'choosing how to split the question', zh: '选择拆解策略' },
  searchKnowledge: { en: 'searching the knowledge sources', zh: '检索资料' },
  gatherKnowledge: { en: 'looking up what is known', zh: '查阅相关资料' },
  callChosenTool: { en: 'consulting a knowledge source', zh: '查询知识来源' },
  proposeSubQuestions: { en: 'proposing sub-questions', zh: '提出子问题' },
  reviewProposal: { en: 'waiting for your review', zh: '等待你审阅' },
  createChildren: { en: 'creating the sub-questions', zh: '创建子问题' },
  draftConclusion: { en: 'drafting a conclusion', zh: '起草结论' },
  reviewConclusion: { en: 'waiting for your feedback', zh: '等待你的反馈' },
  saveConclusion: { en: 'saving the conclusion', zh: '保存结论' },
  formulateQuestion: { en: 'preparing a question for you', zh: '准备向你提问' },
  waitForAnswer: { en: 'waiting for your answer', zh: '等待你的回答' },
  recordAnswer: { en: 'recording your answer', zh: '记录你的回答' },
  // Divergent exploration.
  readIntent: { en: 'reading what you want to find out', zh: '理解你的探索目标' },
  writeSummary: { en: 'summarising what is known', zh: '总结已有的内容' },
  planTasks: { en: 'planning the next tasks', zh: '规划下一轮任务' },
  reviewTasks: { en: 'waiting for you to approve the tasks', zh: '等待你批准任务' },
  createTasks: { en: 'setting up the tasks', zh: '创建任务' },
  runTask: { en: 'working on the tasks', zh: '执行任务' },
  closeLevel: { en: 'bringing the results together', zh: '汇总本轮结果' },
  evaluateCompletion: { en: 'judging how complete the answer is', zh: '评估完成度' },
  writeFinal: { en: 'writing the final document', zh: '撰写最终文档' },
  // Critic review.
  readScope: { en: 'reading the map to review', zh: '阅读要审阅的导图' },
  reviewScope: { en: 'reviewing the map', zh: '审阅导图' },
  postSuggestions: { en: 'posting its suggestions', zh: '提交修改建议' },
  // Consultation.
  initial_setup: { en: 'getting the consultation ready', zh: '准备咨询' },
  compress_context: { en: 'condensing the earlier conversation', zh: '压缩之前的对话' },
  front_agent: { en: 'answering you', zh: '回复你' },
  planner_agent: { en: 'planning the next steps', zh: '规划下一步' },
  db_writer: { en: 'writing down a record', zh: '记录要点' },
  note_writer: { en: 'writing a note', zh: '撰写笔记' },
};

const WORKING = { en: 'working', zh: '处理' } as const;

/**
 * A graph step in words (`proposeSubQuestions` → "proposing sub-questions" / "提出子问题"). A step this
 * version does not know yet reads "working": a step's internal name is never shown.
 */
export function stepLabel(step: string, language: Language): string {
  return (STEP_LABELS[step] ?? WORKING)[language];
}
