import type { AgentName, OfflineHint } from '../ports/model-port.ts';
import type { ClarifyQuestion } from '../schemas/clarify-question.ts';
import type { ConclusionDraft } from '../schemas/conclusion-draft.ts';
import type { FrontReply, PlannerDecision } from '../schemas/consultation.ts';
import type { IntentDecision } from '../schemas/intent-decision.ts';
import type { StrategyDecision } from '../schemas/strategy-decision.ts';
import type { SubQuestionProposal } from '../schemas/sub-question-proposal.ts';
import type { ToolChoice } from '../schemas/tool-choice.ts';
import type { Understanding } from '../schemas/understanding.ts';
import { applyCorrection } from './apply-correction.ts';

/** The label every offline draft starts with, so nobody mistakes it for a model's reasoning. */
export const OFFLINE_LABEL = { zh: '【离线草稿】', en: '[Offline draft] ' } as const;

const short = (text: string, max = 40) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * Restates what the person wrote, faithfully: their problem, title, goal and constraints as given (a title
 * and a goal are filled in only when they left them empty), and their correction applied to the field it
 * concerns (see {@link applyCorrection}).
 */
function understand(h: OfflineHint): Understanding {
  const zh = h.language === 'zh';
  const base = h.understanding;
  const problem = base?.problem.trim() || h.question;
  const restated: Understanding = {
    title: short(base?.title.trim() || problem, 80),
    problem,
    goal:
      base?.goal.trim() ||
      (zh
        ? `为「${short(problem)}」找到一个有依据、可执行的答案`
        : `Reach a well-founded, actionable answer to "${short(problem)}"`),
    constraints: (base?.constraints ?? []).filter((c) => c.trim()).slice(0, 12),
  };
  if (!h.reply) return restated;
  const corrected = applyCorrection(restated, h.reply, zh);
  return { ...corrected, title: short(corrected.title, 80) };
}

function intent(h: OfflineHint): IntentDecision {
  const zh = h.language === 'zh';
  const children = h.childCount ?? 0;
  if (children > 0 && (h.concludedChildCount ?? 0) === children)
    return {
      intent: 'CONCLUDE',
      reason: zh ? '所有子问题都已有结论' : 'every sub-question is concluded',
      confidence: 0.9,
    };
  if ((h.depth ?? 0) === 0 && children === 0)
    return { intent: 'DECOMPOSE', reason: zh ? '根问题需要先拆解' : 'a root question is split first', confidence: 0.8 };
  return {
    intent: 'CONCLUDE',
    reason: zh ? '这个问题足够具体，可以直接得出结论' : 'the question is specific enough to conclude',
    confidence: 0.6,
  };
}

function strategy(h: OfflineHint): StrategyDecision {
  const zh = h.language === 'zh';
  const stepwise = /how|如何|怎么|步骤|steps?/i.test(h.question);
  return {
    strategy: stepwise ? 'SEQUENTIAL' : 'PARALLEL',
    factors: [
      {
        factor: zh ? '子任务关系' : 'sub-task relation',
        assessment: stepwise
          ? zh
            ? '步骤有先后'
            : 'steps build on each other'
          : zh
            ? '方面彼此独立'
            : 'aspects are independent',
      },
    ],
    reason: zh
      ? '按问题的措辞选择：步骤类问题按顺序拆解，其余并行'
      : 'chosen from the wording: step-by-step questions in sequence, others in parallel',
  };
}

function decompose(h: OfflineHint): SubQuestionProposal {
  const q = short(h.question, 60);
  const zh = h.language === 'zh';
  const items = zh
    ? [
        ['现状', `「${q}」的现状和已知事实是什么？`],
        ['方案', `「${q}」有哪些可选方案？`],
        ['选择', `哪个方案最能实现目标？`],
      ]
    : [
        ['facts', `What are the facts and current situation of "${q}"?`],
        ['options', `What options exist for "${q}"?`],
        ['choice', 'Which option best meets the goal?'],
      ];
  return {
    subQuestions: items.map(([key, question], i) => ({
      key: `q${i + 1}`,
      question: question!,
      goal: zh ? `弄清${key}` : `Establish the ${key}`,
      dependsOn: i === 2 ? ['q1', 'q2'] : [],
    })),
    rationale: zh ? '先弄清事实和方案，再做选择' : 'facts and options first, then the choice',
  };
}

function conclude(h: OfflineHint): ConclusionDraft {
  const zh = h.language === 'zh';
  const q = short(h.question, 60);
  const goal = h.goal ? short(h.goal, 80) : '';
  const base = zh
    ? `${OFFLINE_LABEL.zh}关于「${q}」${goal ? `（目标：${goal}）` : ''}：这份草稿未经 AI 模型推理，只列出了问题本身。请补充你知道的情况，再决定是否接受。`
    : `${OFFLINE_LABEL.en}On "${q}"${goal ? ` (goal: ${goal})` : ''}: this draft was written without an AI model and only restates the question. Add what you know before you accept it.`;
  const feedback = h.reply ? (zh ? ` 你的意见：${h.reply}` : ` Your feedback: ${h.reply}`) : '';
  return { kind: 'ANALYTICAL', conclusion: base + feedback, keyPoints: [short(h.question, 60)], confidence: 0.1 };
}

function clarify(h: OfflineHint): ClarifyQuestion {
  return h.language === 'zh'
    ? { question: `关于「${short(h.question)}」，对你来说最重要的是什么？`, why: '这决定了结论的侧重点' }
    : {
        question: `What matters most to you about "${short(h.question)}"?`,
        why: 'it decides what the conclusion weighs most',
      };
}

/** The offline front agent says what it noted, and sends the message to the planner. */
function front(h: OfflineHint): FrontReply {
  const reply =
    h.language === 'zh'
      ? `${OFFLINE_LABEL.zh}已记下：「${short(h.question, 120)}」。没有连接 AI 模型，我只能把你说的记录下来。`
      : `${OFFLINE_LABEL.en}Noted: "${short(h.question, 120)}". No AI model is connected, so I can only keep what you say.`;
  return { reply, route: 'plan' };
}

/** The offline planner keeps the person's message as a requirement, in their words, and finishes. */
function planner(h: OfflineHint): PlannerDecision {
  return {
    next: 'FINISH',
    askUser: null,
    record: { kind: 'REQUIREMENT', content: short(h.question, 4000), sourceMessageId: null },
    note: null,
  };
}

const ANSWERS: Record<AgentName, (hint: OfflineHint) => unknown> = {
  front,
  planner,
  summarize: (h) => ({ summary: short(h.question, 6000) }),
  understand,
  intent,
  strategy,
  decompose,
  conclude,
  clarify,
  explore: (h) => ({ query: h.question }),
  // Divergent exploration offline: nothing to research, so no task is planned and nothing is scored complete.
  diverge: (h) => ({
    rationale: h.language === 'zh' ? '离线时不规划任务' : 'no task is planned offline',
    tasks: [],
  }),
  skill: (h) => ({ language: 'text', code: h.question, explanation: OFFLINE_LABEL[h.language] }),
  evaluate: (h) => {
    const reason = h.language === 'zh' ? '离线草稿未经 AI 模型评估' : 'an offline draft is not evaluated by a model';
    const dimension = { score: 0, reason };
    return { completeness: dimension, intentMatch: dimension, quality: dimension };
  },
  // Reviewing needs judgement: offline, the critic finds nothing rather than invent findings.
  critic: (h) => ({
    summary: h.language === 'zh' ? '离线时不审阅思维导图' : 'the map is not reviewed offline',
    findings: [],
  }),
};

/** Answers for schemas an agent asks besides its main one, by schema name. */
const BY_SCHEMA: Record<string, (hint: OfflineHint) => unknown> = {
  // The offline model cannot judge a tool's use, so it calls none.
  tool_choice: (h): ToolChoice => ({
    tool: null,
    arguments: {},
    why: h.language === 'zh' ? '离线时不调用额外的工具' : 'no extra tool is called offline',
  }),
};

/** The deterministic structured answer of the offline model for an agent (and the schema it asks for). */
export function offlineAnswer(agent: AgentName, hint: OfflineHint, schemaName?: string): unknown {
  const bySchema = schemaName ? BY_SCHEMA[schemaName] : undefined;
  return bySchema ? bySchema(hint) : ANSWERS[agent](hint);
}
