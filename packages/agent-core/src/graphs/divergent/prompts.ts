import type { Language } from '../../domain/enums.ts';
import type { CitableResult, DivergentSkillName } from '../../ports/divergent-skills-port.ts';
import type { ChatMessage } from '../../ports/model-port.ts';
import type { Bilingual } from '../../prompts/prompt-text.ts';

/** System prompt of the summaries: level 0 restates the intent, later levels converge task results. */
export const SUMMARIZE_SYSTEM: Bilingual = {
  en: `You are the summary agent of a divergent exploration in ThinkingMap ("summarise, fan out, converge").
Write a concise Markdown summary of what is known about the person's intent: the facts established, the open questions, and what is still missing. When task results are given, merge them (cite them by key, e.g. [L1.T2]) and say what they changed.`,
  zh: `你是 ThinkingMap 发散探索（"总分总"）中的总结 Agent。
用 Markdown 简明总结关于用户意图已知的内容：已确认的事实、未解决的问题、仍然缺少的信息。给出任务结果时，把它们汇聚起来（按编号引用，如 [L1.T2]），并说明它们带来了什么变化。用中文回答。`,
};

/** System prompt of the task planner. */
export const PLAN_SYSTEM: Bilingual = {
  en: `You are the task planner of a divergent exploration in ThinkingMap. From the intent and the current summary, propose the sub-tasks that would close the gaps, to run in parallel: each with a short name, a precise query, one skill, and a priority from 1 (low) to 5 (high). Propose at most {max} tasks. Return an empty list when the summary already answers the intent.`,
  zh: `你是 ThinkingMap 发散探索中的任务规划 Agent。根据用户意图和当前总结，提出能填补空白、可并行执行的子任务：每个包含简短名称、明确的查询、一个技能，以及 1（低）到 5（高）的优先级。最多提出 {max} 个任务。如果当前总结已经回答了用户意图，返回空列表。用中文填写名称和查询。`,
};

const SKILL_TEXT: Record<DivergentSkillName, Bilingual> = {
  librarySearch: { en: 'search the knowledge library', zh: '在知识库中检索' },
  webSearch: { en: 'search the web', zh: '网络搜索' },
  commonQnA: { en: 'analysis and reasoning', zh: '分析与推理' },
  generateDoc: { en: 'write a Markdown document (once enough is known)', zh: '撰写 Markdown 文档（信息充分后使用）' },
  codeArtifacts: { en: 'write code (once enough is known)', zh: '编写代码（信息充分后使用）' },
};

/** System prompt of the completion evaluator, with the design's three weighted dimensions. */
export const EVALUATE_SYSTEM: Bilingual = {
  en: `You are the completion evaluator of a divergent exploration in ThinkingMap. Judge how completely the current summary and the task results answer the person's intent, on three dimensions, each scored from 0 to 1 with a one-sentence reason:
- completeness (40%): has enough relevant information been gathered?
- intentMatch (40%): does it answer what the person actually wants?
- quality (20%): is the content accurate, clear and useful?
Above 0.9 a high-quality final output can be written; 0.7–0.9 needs a little more; below 0.5 is a beginning.`,
  zh: `你是 ThinkingMap 发散探索中的完成度评估 Agent。判断当前总结和任务结果在多大程度上回答了用户意图，从三个维度各打 0 到 1 分，并各用一句话说明理由：
- completeness（信息完整性，40%）：是否收集了足够的相关信息？
- intentMatch（用户意图匹配度，40%）：是否准确回应了用户的需求？
- quality（输出质量，20%）：内容是否准确、清晰、有价值？
0.9 以上可以生成高质量的最终输出；0.7–0.9 需要补充少量信息；0.5 以下刚刚开始。理由用中文写。`,
};

/** System prompt of the final output. */
export const FINAL_SYSTEM: Bilingual = {
  en: `You write the final output of a divergent exploration in ThinkingMap: one Markdown document that answers the person's intent, with a title, sections, and citations of the task results it relies on by key (e.g. [L1.T2]). Say what remains uncertain. Do not write a list of sources: one is added after your document from the tasks you cite.`,
  zh: `你负责撰写 ThinkingMap 发散探索的最终输出：一篇回答用户意图的 Markdown 文档，包含标题、分节，并按编号（如 [L1.T2]）引用所依据的任务结果。说明仍不确定的地方。不要自己列来源：文档之后会根据你引用的任务附上来源。用中文写。`,
};

/** The labels of the prompts' sections. */
const LABEL = {
  intent: { en: 'Intent', zh: '用户意图' },
  previousSummary: { en: 'Previous summary', zh: '上一版总结' },
  currentSummary: { en: 'Current summary', zh: '当前总结' },
  finalSummary: { en: 'Final summary', zh: '最终总结' },
  taskResults: { en: 'Task results', zh: '任务结果' },
  allTaskResults: { en: 'All task results', zh: '所有任务结果' },
  feedback: { en: "The person's feedback (take it into account)", zh: '用户的反馈（必须考虑）' },
  skills: { en: 'Skills you may use', zh: '可用技能' },
  score: { en: 'Current completion score', zh: '当前完成度' },
} satisfies Record<string, Bilingual>;

/** One labelled section of a prompt (the text below its label, or after it on the same line). */
const section = (language: Language, label: Bilingual, text: string, separator = ':\n') =>
  `${label[language]}${separator}${text}`;

/** A prompt's messages: the system text, then the sections given (empty ones left out) as the user's message. */
function chat(system: string, sections: (string | false | null)[]): ChatMessage[] {
  return [
    { role: 'system', content: system },
    { role: 'user', content: sections.filter(Boolean).join('\n\n') },
  ];
}

/** The results as the prompts quote them: `[key] name` then the text. */
export function resultsText(results: CitableResult[]): string {
  return results.map((r) => `[${r.key}] ${r.name}\n${r.text}`).join('\n\n---\n\n');
}

/** Messages of a summary: the intent, the previous summary, the results to converge and the person's feedback. */
export function summarizeMessages(
  language: Language,
  intent: string,
  previous: string | null,
  results: CitableResult[],
  feedback: string | null,
): ChatMessage[] {
  return chat(SUMMARIZE_SYSTEM[language], [
    section(language, LABEL.intent, intent),
    previous && section(language, LABEL.previousSummary, previous),
    results.length > 0 && section(language, LABEL.taskResults, resultsText(results)),
    feedback && section(language, LABEL.feedback, feedback),
  ]);
}

/** Messages of the planner: the skills offered, the intent, the summary, its score and the person's feedback. */
export function planMessages(
  language: Language,
  intent: string,
  summary: string,
  skills: DivergentSkillName[],
  max: number,
  score: number | null,
): ChatMessage[] {
  const offered = skills.map((s) => `- ${s}: ${SKILL_TEXT[s][language]}`).join('\n');
  return chat(PLAN_SYSTEM[language].replace('{max}', String(max)), [
    section(language, LABEL.skills, offered),
    section(language, LABEL.intent, intent),
    section(language, LABEL.currentSummary, summary),
    score !== null && section(language, LABEL.score, String(score), ': '),
  ]);
}

/** Messages of the evaluator: the intent, the current summary and all task results. */
export function evaluateMessages(
  language: Language,
  intent: string,
  summary: string,
  results: CitableResult[],
): ChatMessage[] {
  return chat(EVALUATE_SYSTEM[language], [
    section(language, LABEL.intent, intent),
    section(language, LABEL.currentSummary, summary),
    section(language, LABEL.allTaskResults, resultsText(results) || '-'),
  ]);
}

/** Messages of the final output: the intent, the last summary and the results to cite. */
export function finalMessages(
  language: Language,
  intent: string,
  summary: string,
  results: CitableResult[],
): ChatMessage[] {
  return chat(FINAL_SYSTEM[language], [
    section(language, LABEL.intent, intent),
    section(language, LABEL.finalSummary, summary),
    section(language, LABEL.taskResults, resultsText(results) || '-'),
  ]);
}
