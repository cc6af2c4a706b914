import type { MarkdownConsultationRecord, MarkdownMap, MarkdownNode, MarkdownRun } from './markdown-map.ts';

/** A word for each value a field of the rendered map can hold (its enum), so the labels follow the map's fields. */
type WordsFor<Value extends PropertyKey | null | undefined> = Record<NonNullable<Value>, string>;

/** Every word the rendered map shows around the person's text, in one language. */
export interface MarkdownLabels {
  map: string;
  languageName: string;
  problem: string;
  goal: string;
  constraints: string;
  tree: string;
  noNodes: string;
  why: string;
  waitsFor: string;
  context: string;
  conclusion: string;
  /** Heads a divergent final output, given as the Markdown document it is. */
  divergentDocument: string;
  /** Heads the line saying a conclusion is out of date, and why. */
  outOfDate: string;
  /** Divergent exploration: a node's role, its level and a summary's completion score. */
  divergentRole: WordsFor<MarkdownNode['divergentRole']>;
  level: string;
  completion: string;
  staleReason: WordsFor<MarkdownNode['staleReason']>;
  waitingForYou: string;
  onNode: string;
  agentsAtWork: string;
  run: string;
  mapStatus: WordsFor<MarkdownMap['status']>;
  nodeStatus: WordsFor<MarkdownNode['status']>;
  runStatus: WordsFor<MarkdownRun['status']>;
  conclusionKind: WordsFor<MarkdownNode['conclusionKind']>;
  /** The consultations' records (numbered when there are several) and the map's notes. */
  consultationRecords: string;
  consultation: string;
  noRecords: string;
  recordKind: WordsFor<MarkdownConsultationRecord['kind']>;
  notes: string;
}

/**
 * The labels per map language. Typed by the map's fields (their enums), so a new status, kind or language does
 * not compile until it has its words here.
 */
export const LABELS: Record<MarkdownMap['language'], MarkdownLabels> = {
  en: {
    map: 'Map',
    languageName: 'English',
    problem: 'Problem',
    goal: 'Goal',
    constraints: 'Constraints',
    tree: 'Thinking tree',
    noNodes: 'No nodes yet: the problem is still being understood.',
    why: 'Why',
    waitsFor: 'Waits for',
    context: 'Context',
    conclusion: 'Conclusion',
    divergentDocument: 'Document (Markdown, as written)',
    outOfDate: 'Conclusion out of date',
    divergentRole: { SUMMARY: 'Divergent summary', TASK: 'Divergent task', FINAL: 'Divergent final output' },
    level: 'level',
    completion: 'completion',
    staleReason: {
      CHILD_ADDED: 'a sub-question was added',
      CHILD_REMOVED: 'a sub-question was removed',
      CHILD_CHANGED: 'the conclusion of a sub-question changed',
      CHILD_STALE: 'the conclusion of a sub-question is out of date',
      DEPENDENCY_CHANGED: 'the conclusion of a question it depends on changed',
      FLAGGED_BY_REVIEW: 'a review found it wanting and you asked to redo it',
    },
    waitingForYou: 'Waiting for you',
    onNode: 'on node',
    agentsAtWork: 'Agents at work',
    run: 'run',
    mapStatus: { DRAFT: 'draft', ACTIVE: 'active', COMPLETED: 'completed', ARCHIVED: 'archived' },
    nodeStatus: {
      PENDING: 'Pending',
      READY: 'Ready',
      BLOCKED: 'Blocked',
      RUNNING: 'Running',
      WAITING: 'Waiting for you',
      COMPLETED: 'Concluded',
      FAILED: 'Failed',
    },
    runStatus: {
      RUNNING: 'running',
      WAITING: 'waiting for you',
      PAUSED: 'paused: waiting for you',
      WAITING_FOR_DEPENDENCIES: 'waiting for its dependencies',
      COMPLETED: 'completed',
      FAILED: 'failed',
      CANCELLED: 'cancelled',
    },
    conclusionKind: { ANALYTICAL: 'Analytical', CREATIVE: 'Creative', DECISION: 'Decision', LEARNING: 'Learning' },
    consultationRecords: 'Consultation records',
    consultation: 'Consultation',
    noRecords: 'No records yet.',
    recordKind: { FACT: 'Fact', REQUIREMENT: 'Requirement', DECISION: 'Decision', OPEN_QUESTION: 'Open question' },
    notes: 'Notes',
  },
  zh: {
    map: '思考地图',
    languageName: '中文',
    problem: '问题',
    goal: '目标',
    constraints: '约束条件',
    tree: '思考树',
    noNodes: '还没有节点：问题仍在理解中。',
    why: '原因',
    waitsFor: '依赖',
    context: '背景资料',
    conclusion: '结论',
    divergentDocument: '文档（Markdown 原文）',
    outOfDate: '结论已过时',
    divergentRole: { SUMMARY: '发散总结', TASK: '发散任务', FINAL: '发散最终输出' },
    level: '层级',
    completion: '完成度',
    staleReason: {
      CHILD_ADDED: '新增了子问题',
      CHILD_REMOVED: '删除了子问题',
      CHILD_CHANGED: '子问题的结论变了',
      CHILD_STALE: '子问题的结论已过时',
      DEPENDENCY_CHANGED: '它所依赖的问题的结论变了',
      FLAGGED_BY_REVIEW: '审阅发现它有问题，你要求重做',
    },
    waitingForYou: '等你回答',
    onNode: '节点',
    agentsAtWork: '进行中的智能体',
    run: '运行',
    mapStatus: { DRAFT: '草稿', ACTIVE: '进行中', COMPLETED: '已完成', ARCHIVED: '已归档' },
    nodeStatus: {
      PENDING: '待处理',
      READY: '就绪',
      BLOCKED: '受阻',
      RUNNING: '进行中',
      WAITING: '等待回复',
      COMPLETED: '已完成',
      FAILED: '失败',
    },
    runStatus: {
      RUNNING: '运行中',
      WAITING: '等你回答',
      PAUSED: '已暂停：等你回答',
      WAITING_FOR_DEPENDENCIES: '等待所依赖的问题',
      COMPLETED: '已完成',
      FAILED: '失败',
      CANCELLED: '已取消',
    },
    conclusionKind: { ANALYTICAL: '分析型', CREATIVE: '创意型', DECISION: '决策型', LEARNING: '学习型' },
    consultationRecords: '咨询记录',
    consultation: '咨询',
    noRecords: '还没有记录。',
    recordKind: { FACT: '事实', REQUIREMENT: '需求', DECISION: '决定', OPEN_QUESTION: '待解决的问题' },
    notes: '笔记',
  },
};
