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

/** Starts the scripted model server; returns the model for buildApp and a close function. */
export async function startScriptedModel() {
  const { OpenAiModel } = await import('@thinkingmap/agent-core');
  const { startOpenAiServer } = await import('@thinkingmap/agent-core/testing');
  const script = cafeScript();
  const calls = new Map<string, number>();
  /** Answers (by schema name) that stop streaming half-way until released (to watch them being written). */
  const held = new Map<string, { resume: Promise<void>; afterChars: number }>();
  const server = await startOpenAiServer({
    respond: (request) => {
      const name = request.body.response_format?.json_schema?.name ?? 'text';
      const n = (calls.get(name) ?? 0) + 1;
      calls.set(name, n);
      const prompt = (request.body.messages ?? [])
        .map((m: { content?: unknown }) => String(m.content ?? ''))
        .join('\n');
      const answer = script[name]?.(prompt, n);
      if (!answer) return { status: 400, message: `no scripted answer for ${name}` };
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
    timeoutMs: 5_000,
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
    /** Holds the next drafted conclusion half-way through its stream; call the returned function to let it finish. */
    holdNextConclusion: () => holdNext('conclusion_draft', 64),
    /** Holds the consultation's next front reply half-way through its stream. */
    holdNextFrontReply: () => holdNext('front_reply', 40),
  };
}
