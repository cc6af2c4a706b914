import { AgentGraph } from '@thinkingmap/db/enums';
import { describe, expect, it } from 'vitest';
import { translate } from '../i18n/translate.ts';
import { agentNameKey } from './agent-name.ts';

describe('agentNameKey', () => {
  it('should give every agent graph its own name in English and in Chinese', () => {
    for (const language of ['en', 'zh'] as const) {
      const names = Object.values(AgentGraph).map((graph) => translate(language, agentNameKey(graph)));
      expect(new Set(names).size, language).toBe(names.length);
      expect(names, language).not.toContain(translate(language, 'run.agent.other'));
    }
  });

  it('should call a run of an unknown graph "an agent"', () => {
    expect(translate('en', agentNameKey('someday-graph'))).toBe('An agent');
    expect(translate('zh', agentNameKey(null))).toBe('智能体');
  });
});
