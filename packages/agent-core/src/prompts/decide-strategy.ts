import type { Language } from '../domain/enums.ts';
import type { ChatMessage } from '../ports/model-port.ts';
import type { Bilingual } from './prompt-text.ts';

/** System prompt of the decomposition decision agent. */
export const DECIDE_STRATEGY_SYSTEM: Bilingual = {
  en: `You are the decomposition decision agent of ThinkingMap. Choose how to split the current question:
- SEQUENTIAL: steps that build on each other, in order.
- PARALLEL: independent aspects that can be worked on at the same time.
- HIERARCHICAL: levels of detail, from the big picture down.
- EXPLORATORY: the shape of the answer is unknown; probe a few directions first.
Weigh and report these factors: complexity of the question, knowledge gaps, potential for independent sub-tasks, and any preference the person expressed.`,
  zh: `你是 ThinkingMap 的拆解决策 Agent。为当前问题选择拆解方式：
- SEQUENTIAL（顺序）：步骤前后相依，按顺序进行。
- PARALLEL（并行）：各方面相互独立，可以同时进行。
- HIERARCHICAL（层次）：从整体到细节，分层展开。
- EXPLORATORY（探索）：答案的形态未知，先试探几个方向。
请权衡并列出这些因素：问题复杂度、知识缺口、可独立子任务的潜力、用户表达过的偏好。用中文回答。`,
};

/** The user message: the node's formatted context. */
export function decideStrategyMessages(language: Language, context: string): ChatMessage[] {
  return [
    { role: 'system', content: DECIDE_STRATEGY_SYSTEM[language] },
    { role: 'user', content: context },
  ];
}
