import type { Refusals } from '@thinkingmap/agent-core/testing';

/**
 * A local OpenAI-compatible server with scripted answers (agent-core's test server), and the real `openai`
 * SDK model pointed at it: the agents run for real, only the model's words are scripted. Each agent is
 * answered by the JSON schema it asks for; the café journey decides by what the prompt is about.
 */
export const ROOT_QUESTION = 'Should I open a café in my neighbourhood?';
export const CORRECTED_QUESTION = 'Should I open a second café next to my first one?';

/** The consultation's front replies, in order (the second is the one a newer message interrupts). */
export const FRONT_REPLIES = [
  'Happy to help with your tea shop. Let us start with what you sell.',
  'Tea cups are a good match for tea: tell me more about them.',
  'Understood: cups only, no tea. I will plan around that.',
  'A handmade cup could sell for about 12 euros.',
  '好的，我们来看看茶具的定价。',
];
/** The note the planner writes in its first decision. */
export const TEA_NOTE = {
  path: 'shop/overview.md',
  content: '# Tea shop\n\nHandmade tea, **sold online**.\n\n- Start small\n- Ship weekly',
};

/** The model's answers for the café journey (and a tea shop's consultation). */
export function cafeScript(): Record<string, (prompt: string, call: number) => object> {
  const intentCalls = new Map<string, number>();
  return {
    problem_understanding: (prompt) =>
      prompt.includes('second')
        ? {
            title: 'A second café',
            problem: CORRECTED_QUESTION,
            goal: 'Decide by June',
            constraints: ['Budget under 50k'],
          }
        : { title: 'A neighbourhood café', problem: ROOT_QUESTION, goal: 'Decide within a month', constraints: [] },
    intent_decision: (prompt) => {
      const node = prompt.includes('Where should it be')
        ? 'site'
        : prompt.includes('coffee market')
          ? 'market'
          : 'root';
      const n = (intentCalls.get(node) ?? 0) + 1;
      intentCalls.set(node, n);
      const intent = node === 'root' ? 'DECOMPOSE' : node === 'market' && n === 1 ? 'CLARIFY' : 'CONCLUDE';
      return { intent, reason: `because ${intent}`, confidence: 0.8 };
    },
    strategy_decision: () => ({
      strategy: 'SEQUENTIAL',
      factors: [{ factor: 'order', assessment: 'the site depends on the market' }],
      reason: 'market first',
    }),
    sub_question_proposal: () => ({
      rationale: 'Know the market before choosing a site',
      subQuestions: [
        { key: 'q1', question: 'How big is the market?', goal: 'Estimate demand', dependsOn: [] },
        { key: 'q2', question: 'Where should it be?', goal: 'Pick a site', dependsOn: ['q1'] },
      ],
    }),
    clarify_question: () => ({
      question: 'What is your budget ceiling?',
      why: 'The market estimate depends on what you can invest',
    }),
    front_reply: (_prompt, call) => ({ reply: FRONT_REPLIES[call - 1] ?? 'Noted.', route: 'plan' }),
    planner_decision: (_prompt, call) =>
      call === 1
        ? {
            next: 'note_writer',
            askUser: null,
            record: { kind: 'REQUIREMENT', content: 'Sell handmade tea online', sourceMessageId: null },
            note: TEA_NOTE,
            plan: ['Understand the shop', 'Choose a platform', 'Set the prices'],
            currentStep: 0,
          }
        : { next: 'FINISH', askUser: null, record: null, note: null, currentStep: 1 },
    conclusion_draft: (_prompt, call) => {
      const text =
        ['About 3,000 cups a day nearby.', 'Next to the university.', 'Open it, next to the university.'][call - 1] ??
        '(extra draft)';
      return { kind: 'DECISION', conclusion: text, keyPoints: [text], confidence: 0.8 };
    },
    // The critic finds a gap under the first question it reads and an overlap on the second, in the map's language.
    critic_review: (prompt) => {
      const zh = prompt.includes('审阅者');
      const none = { goal: null, dependsOn: null };
      return {
        summary: zh ? '缺少人手问题。' : 'Staffing is missing.',
        findings: [
          {
            kind: 'GAP',
            nodes: ['n1'],
            explanation: zh ? '没有人问谁来经营。' : 'Nobody asks who would run it.',
            change: {
              command: 'ADD_SUB_QUESTION',
              node: 'n1',
              question: zh ? '谁来经营？' : 'Who would run it?',
              ...none,
            },
          },
          {
            kind: 'OVERLAP',
            nodes: ['n2'],
            explanation: zh ? '与根问题重复。' : 'It repeats the root question.',
            change: { command: 'EDIT_QUESTION', node: 'n2', question: zh ? '在哪里开？' : 'Where exactly?', ...none },
          },
        ],
      };
    },
  };
}

/** The stage a divergent summary marks itself with, read back from a prompt (the highest quoted), or -1. */
const stageIn = (text: string) => Math.max(-1, ...[...text.matchAll(/(?:stage|阶段) (\d)/g)].map((m) => Number(m[1])));

/** The name of the divergent task that always fails (its model call is refused), in each language. */
export const FAILING_TASK = { en: 'Ask the closed archive', zh: '查询关闭的档案' } as const;

/**
 * The model's answers for a divergent session, by what each prompt is: a summary marks its stage (0, 1, 2);
 * the plan from stage 0 proposes three tasks (one writes code, one always fails), from stage 1 one task, then
 * none; stage 1 scores 0.5 and stage 2 scores 0.95 (over the 0.9 threshold), each dimension with its reason.
 * Chinese prompts get Chinese answers.
 */
export function divergentScript(): Record<string, (prompt: string) => object | undefined> {
  const zhOf = (prompt: string) => /总结 Agent|完成度|用户意图/.test(prompt);
  const plans = (zh: boolean) => [
    [
      {
        name: zh ? '估算客流' : 'Estimate the footfall',
        query: zh ? '附近每天有多少人经过？' : 'How many people pass by each day?',
        skill: 'commonQnA',
        priority: 5,
      },
      {
        name: zh ? '写一个估算脚本' : 'Write an estimate script',
        query: zh ? '估算每日杯数的代码' : 'Code that estimates cups per day',
        skill: 'codeArtifacts',
        priority: 4,
      },
      {
        name: zh ? FAILING_TASK.zh : FAILING_TASK.en,
        query: zh ? '旧的租金记录' : 'Old rent records',
        skill: 'commonQnA',
        priority: 2,
      },
    ],
    [
      {
        name: zh ? '比较竞争对手' : 'Compare the competitors',
        query: zh ? '附近有哪些咖啡馆？' : 'Which cafés are nearby?',
        skill: 'commonQnA',
        priority: 4,
      },
    ],
  ];
  return {
    divergent_plan: (prompt) => ({
      rationale: zhOf(prompt) ? '先补上最大的缺口' : 'Close the biggest gaps first',
      tasks: plans(zhOf(prompt))[stageIn(prompt)] ?? [],
    }),
    completion_evaluation: (prompt) => {
      const done = stageIn(prompt) >= 2;
      const zh = zhOf(prompt);
      const dim = (score: number, en: string, cn: string) => ({ score, reason: zh ? cn : en });
      return {
        completeness: dim(
          done ? 1 : 0.5,
          done ? 'Footfall and competitors are known' : 'Competitors are still unknown',
          done ? '客流和竞争对手都已清楚' : '还不清楚竞争对手',
        ),
        intentMatch: dim(
          done ? 0.9 : 0.5,
          done ? 'It answers whether to open' : 'It does not decide yet',
          done ? '回答了是否开店' : '还没有做出决定',
        ),
        quality: dim(
          done ? 0.95 : 0.5,
          done ? 'Clear and cited' : 'Thin so far',
          done ? '清楚且有引用' : '目前还很单薄',
        ),
      };
    },
    code_artifact: () => ({
      language: 'python',
      code: 'def cups_per_day(footfall: int) -> int:\n    return round(footfall * 0.06)\n',
      explanation: 'Six in a hundred passers-by buy a cup.',
    }),
    text: (prompt) => {
      const zh = zhOf(prompt);
      if (/summary agent|总结 Agent/.test(prompt)) {
        const stage = /(?:Previous summary|上一版总结):/.test(prompt) ? stageIn(prompt) + 1 : 0;
        return {
          content: zh
            ? `## 已知情况（阶段 ${stage}）\n\n- 客流：${stage > 0 ? '每天约 5 万人' : '未知'}\n- 竞争对手：${stage > 1 ? '两家' : '未知'}`
            : `## What we know (stage ${stage})\n\n- Footfall: ${stage > 0 ? 'about 50,000 a day' : 'unknown'}\n- Competitors: ${stage > 1 ? 'two' : 'unknown'}`,
          chunkSize: 8,
        };
      }
      if (/final output of a divergent|最终输出/.test(prompt))
        return {
          content: zh
            ? '# 是否开咖啡馆\n\n**开**，客流足够 [L1.T1]。\n\n```python\nprint(round(50000 * 0.06))\n```\n'
            : '# Should I open the café?\n\n**Yes**: the footfall is enough [L1.T1].\n\n```python\nprint(round(50000 * 0.06))\n```\n',
          chunkSize: 8,
        };
      const name = /(?:Task|任务): (.+)/.exec(prompt)?.[1] ?? '';
      if (name === FAILING_TASK.en || name === FAILING_TASK.zh)
        return { status: 400, message: zh ? '档案馆拒绝了请求' : 'the archive refused the request' };
      if (!name) return undefined;
      return {
        content: zh ? `「${name}」的结果：每天约 5 万人。` : `Result of “${name}”: about 50,000 people a day.`,
        chunkSize: 4,
      };
    },
  };
}

/** Starts the scripted model server; returns the model for buildApp and a close function. */
export async function startScriptedModel(refuse?: Refusals) {
  const { OpenAiModel } = await import('@thinkingmap/agent-core');
  const { schemaNameOf, startOpenAiServer } = await import('@thinkingmap/agent-core/testing');
  const script = { ...cafeScript(), ...divergentScript() };
  const calls = new Map<string, number>();
  /** Answers (by schema name) that stop streaming half-way until released (to watch them being written). */
  const held = new Map<string, { resume: Promise<void>; afterChars: number }>();
  /** The next divergent task's text stops streaming half-way until released, then goes on slowly (to watch it run). */
  let heldTask: { resume: Promise<void> } | null = null;
  /** The next front reply fails as an endpoint that does not know the model would. */
  let failFront = false;
  const server = await startOpenAiServer({
    refuse,
    respond: (request) => {
      const name = schemaNameOf(request) ?? 'text';
      if (name === 'front_reply' && failFront) {
        failFront = false;
        return { status: 404, message: 'The model `scripted café model` does not exist' };
      }
      const n = (calls.get(name) ?? 0) + 1;
      calls.set(name, n);
      const prompt = (request.body.messages ?? [])
        .map((m: { content?: unknown }) => String(m.content ?? ''))
        .join('\n');
      const answer = script[name]?.(prompt, n);
      if (!answer) return { status: 400, message: `no scripted answer for ${name}` };
      if ('status' in answer) return answer as { status: number; message: string };
      if (name === 'text' && 'content' in answer) {
        const reply = answer as { content: string; chunkSize: number };
        if (heldTask && /^(Task|任务): /m.test(prompt)) {
          const { resume } = heldTask;
          heldTask = null;
          // Released, the rest is written slowly, a piece at a time, so the page can be seen following it.
          return { ...reply, pauseAfterChars: 12, resume, chunkDelayMs: 200 };
        }
        return reply;
      }
      const hold = held.get(name);
      if (hold) {
        held.delete(name);
        return { content: JSON.stringify(answer), chunkSize: 8, pauseAfterChars: hold.afterChars, resume: hold.resume };
      }
      return { content: JSON.stringify(answer), chunkSize: 8 };
    },
  });
  const model = new OpenAiModel({
    apiKey: 'test-key',
    baseURL: server.baseURL,
    model: 'scripted café model',
    maxRetries: 2,
    // A held answer waits for the test to release it; on a loaded 2-core machine the clicks and reads in between can
    // take more than 5 s, and a stalled stream then ended as MODEL_TIMEOUT (the run failed under the run view's test).
    timeoutMs: 30_000,
  });
  /** Holds the next answer to `schema` half-way through its stream; the returned function lets it finish. */
  const holdNext = (schema: string, afterChars: number): (() => void) => {
    let release = () => {};
    held.set(schema, { resume: new Promise<void>((resolve) => (release = resolve)), afterChars });
    return () => release();
  };
  return {
    model,
    close: () => server.close(),
    /** Holds the next divergent task's text half-way through its stream; call the returned function to let it finish. */
    holdNextTask(): () => void {
      let release = () => {};
      heldTask = { resume: new Promise<void>((resolve) => (release = resolve)) };
      return () => release();
    },
    /** Holds the next drafted conclusion half-way through its stream; call the returned function to let it finish. */
    holdNextConclusion: () => holdNext('conclusion_draft', 64),
    /** The consultation's next front reply fails (HTTP 404): the turn fails visibly. */
    failNextFrontReply: () => {
      failFront = true;
    },
    /** Holds the consultation's next front reply half-way through its stream. */
    holdNextFrontReply: () => holdNext('front_reply', 40),
  };
}
