import { describe, expect, it } from 'vitest';
import type { SkillRequest } from '../../../ports/divergent-skills-port.ts';
import type { KnowledgePort } from '../../../ports/knowledge-port.ts';
import { ScriptedModel } from '../../../testing/scripted-model.ts';
import { createDivergentSkills } from './create-divergent-skills.ts';

const library: KnowledgePort = {
  name: 'company wiki',
  search: async (query) => [
    {
      title: 'Rents 2026',
      content: `rents for ${query}`,
      sources: [{ title: 'Rent index', uri: 'https://wiki/rents' }],
    },
  ],
};

const request = (skill: SkillRequest['skill'], extra: Partial<SkillRequest> = {}): SkillRequest => ({
  key: 'L2.T1',
  name: 'rents',
  query: 'rents in the north',
  skill,
  language: 'en',
  intent: 'Where should the café open?',
  summary: 'so far: two districts',
  earlier: [{ key: 'L1.T1', name: 'market', text: 'the market grows' }],
  ...extra,
});

describe('divergent skills', () => {
  it('should offer web search only when the operator configured a provider, and say why not', () => {
    const bare = createDivergentSkills({ model: new ScriptedModel({}) });
    expect(bare.available()).toEqual(['commonQnA', 'generateDoc', 'codeArtifacts']);
    expect(bare.unavailableReason('webSearch', 'en')).toBe('no web search provider is configured by the operator');
    expect(bare.unavailableReason('webSearch', 'zh')).toBe('运维方没有配置网络搜索服务');
    expect(bare.unavailableReason('commonQnA', 'en')).toBeNull();
    expect(() => bare.run(request('webSearch'))).toThrow('no web search provider');
    const full = createDivergentSkills({ model: new ScriptedModel({}), library, web: { ...library, name: 'web' } });
    expect(full.available()).toEqual(['librarySearch', 'webSearch', 'commonQnA', 'generateDoc', 'codeArtifacts']);
  });

  it('should search the library and keep the sources', async () => {
    const skills = createDivergentSkills({ model: new ScriptedModel({}), library });
    const result = await skills.run(request('librarySearch'));
    expect(result.sources).toEqual([{ title: 'Rent index', uri: 'https://wiki/rents' }]);
    expect(result.text).toContain('rents for rents in the north ([Rent index](https://wiki/rents))');
  });

  it('should fail a search whose sources were all down, with their notices as the reason', async () => {
    const down: KnowledgePort = {
      name: 'web',
      search: async () => [],
      searchWithNotices: async () => ({ results: [], notices: [{ message: 'web search timed out' }] }),
    };
    const skills = createDivergentSkills({ model: new ScriptedModel({}), web: down });
    await expect(skills.run(request('webSearch'))).rejects.toThrow('web search timed out');
  });

  it('should answer with the model for analysis, and list the earlier results a document cites', async () => {
    const model = new ScriptedModel({ skill: ['the north is cheaper', '# Report\nThe market grows [L1.T1].'] });
    const skills = createDivergentSkills({ model });
    expect((await skills.run(request('commonQnA'))).text).toBe('the north is cheaper');
    const doc = await skills.run(request('generateDoc'));
    expect(doc.cites).toEqual(['L1.T1']);
  });

  it('should write code with its language as a fenced block', async () => {
    const model = new ScriptedModel({
      skill: [{ language: 'python', code: 'print(42)', explanation: 'prints the answer' }],
    });
    const result = await createDivergentSkills({ model }).run(request('codeArtifacts'));
    expect(result.code).toEqual({ language: 'python', code: 'print(42)' });
    expect(result.text).toBe('prints the answer\n\n```python\nprint(42)\n```');
  });
});
