import type { SkillRequest } from '../../../ports/divergent-skills-port.ts';
import type { ChatMessage } from '../../../ports/model-port.ts';
import type { Bilingual } from '../../../prompts/prompt-text.ts';
import { resultsText } from '../prompts.ts';

const SYSTEM: Record<'commonQnA' | 'generateDoc' | 'codeArtifacts', Bilingual> = {
  commonQnA: {
    en: 'You do one task of a divergent exploration in ThinkingMap: analyse and reason about the query, concretely, in Markdown. Say what is uncertain.',
    zh: '你在 ThinkingMap 的发散探索中完成一个任务：针对查询进行具体的分析和推理，用 Markdown 回答，并说明不确定之处。用中文回答。',
  },
  generateDoc: {
    en: 'You write a Markdown document for one task of a divergent exploration in ThinkingMap: a title, sections, and citations of the earlier results you use by their key in brackets (e.g. [L1.T2]).',
    zh: '你在 ThinkingMap 的发散探索中为一个任务撰写 Markdown 文档：包含标题、分节，并用方括号中的编号（如 [L1.T2]）引用所用到的先前结果。用中文写。',
  },
  codeArtifacts: {
    en: 'You write code for one task of a divergent exploration in ThinkingMap: working code for the query, its language, and a short explanation.',
    zh: '你在 ThinkingMap 的发散探索中为一个任务编写代码：针对查询的可运行代码、代码语言，以及简短说明（用中文）。',
  },
};

/** The messages of a model-backed skill: the task's query, the intent, the summary and (for documents) earlier results. */
export function skillMessages(skill: keyof typeof SYSTEM, request: SkillRequest): ChatMessage[] {
  const zh = request.language === 'zh';
  let content = `${zh ? '任务' : 'Task'}: ${request.name}\n${zh ? '查询' : 'Query'}: ${request.query}\n\n${zh ? '用户意图' : 'Intent'}:\n${request.intent}\n\n${zh ? '当前总结' : 'Current summary'}:\n${request.summary}`;
  if (skill === 'generateDoc' && request.earlier.length)
    content += `\n\n${zh ? '可引用的先前结果' : 'Earlier results you may cite'}:\n${resultsText(request.earlier)}`;
  return [
    { role: 'system', content: SYSTEM[skill][request.language] },
    { role: 'user', content },
  ];
}
