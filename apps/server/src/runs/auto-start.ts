import type { AgentRun, Language } from '@thinkingmap/db';
import type { DecisionRecord } from './decisions.ts';

/**
 * Why a run started by itself: bottom-up (its children concluded), a redraft, its dependencies concluded, or
 * (DIVERGENT_MAP) the person confirmed the understanding of a map created in divergent mode.
 */
export interface AutoStart {
  trigger: 'BOTTOM_UP' | 'REDRAFT' | 'DEPENDENCIES_CONCLUDED' | 'DIVERGENT_MAP';
}

const REASONS: Record<AutoStart['trigger'], Record<Language, string>> = {
  BOTTOM_UP: {
    en: 'every child of this question is concluded, so its conclusion is drafted for your review',
    zh: '这个问题的所有子问题都已得出结论，因此起草它的结论供你审阅',
  },
  REDRAFT: {
    en: 'its conclusion is out of date and what it draws from is current again, so it is redrafted for your review',
    zh: '它的结论已过时，而它所依据的内容已再次更新，因此重新起草供你审阅',
  },
  DEPENDENCIES_CONCLUDED: {
    en: 'the questions it waited for are concluded, so the run you asked for starts',
    zh: '它等待的问题都已得出结论，因此你要求的运行开始了',
  },
  DIVERGENT_MAP: {
    en: 'you confirmed the understanding of a map created in divergent mode, so divergent exploration starts on its root',
    zh: '你确认了发散模式地图的问题理解，因此从根问题开始发散探索',
  },
};

/** The decision recorded on a run that started by itself: what set it off and why (in the map's language). */
export function autoStartDecision(run: AgentRun, auto: AutoStart, language: Language): DecisionRecord {
  return {
    runId: run.id,
    nodeId: run.nodeId,
    kind: 'AUTO_START',
    choice: { trigger: auto.trigger },
    reason: REASONS[auto.trigger][language],
    decidedBy: 'SYSTEM',
    key: 'autoStart',
  };
}
