import type { Language } from '../../../domain/enums.ts';
import {
  DIVERGENT_SKILL_NAMES,
  type DivergentSkillName,
  type DivergentSkills,
  type SkillRequest,
  type SkillResult,
} from '../../../ports/divergent-skills-port.ts';
import type { KnowledgePort } from '../../../ports/knowledge-port.ts';
import type { ModelPort } from '../../../ports/model-port.ts';
import { CodeArtifactSchema } from '../schemas.ts';
import { searchSkill } from './search-skill.ts';
import { skillMessages } from './skill-prompts.ts';

/** Where the skills come from: the model, the knowledge servers (library search) and an operator's web search. */
export interface DivergentSkillSources {
  model: ModelPort;
  /** The knowledge MCP servers the product uses; without them library search is not offered. */
  library?: KnowledgePort;
  /** A web search provider the operator configured; without it web search is not offered. */
  web?: KnowledgePort;
}

const MISSING: Partial<Record<DivergentSkillName, Record<Language, string>>> = {
  librarySearch: { en: 'no knowledge server is configured', zh: '没有配置知识库服务' },
  webSearch: { en: 'no web search provider is configured by the operator', zh: '运维方没有配置网络搜索服务' },
};

/** The citation keys a document uses that name earlier results. */
function citedKeys(text: string, request: SkillRequest): string[] {
  return request.earlier.map((r) => r.key).filter((key) => text.includes(`[${key}]`));
}

/** The skills of divergent tasks, behind {@link DivergentSkills}: searches offered only when configured. */
export function createDivergentSkills(sources: DivergentSkillSources): DivergentSkills {
  const { model, library, web } = sources;
  const chat = async (request: SkillRequest, skill: 'commonQnA' | 'generateDoc') => {
    const answer = await model.chat({
      agent: 'skill',
      messages: skillMessages(skill, request),
      offlineHint: { language: request.language, question: request.query },
      signal: request.signal,
      onToken: request.onToken,
    });
    return answer.text;
  };
  const run: Record<DivergentSkillName, (r: SkillRequest) => Promise<SkillResult>> = {
    librarySearch: (r) => searchSkill(library!, r),
    webSearch: (r) => searchSkill(web!, r),
    commonQnA: async (r) => ({ text: await chat(r, 'commonQnA'), sources: [] }),
    generateDoc: async (r) => {
      const text = await chat(r, 'generateDoc');
      return { text, sources: [], cites: citedKeys(text, r) };
    },
    codeArtifacts: async (r) => {
      const answer = await model.structured({
        agent: 'skill',
        schema: CodeArtifactSchema,
        schemaName: 'code_artifact',
        readable: { explanation: (v) => (typeof v === 'string' ? v : '') },
        messages: skillMessages('codeArtifacts', r),
        offlineHint: { language: r.language, question: r.query },
        signal: r.signal,
        onToken: r.onToken,
      });
      const { language, code, explanation } = answer.value;
      return { text: `${explanation}\n\n\`\`\`${language}\n${code}\n\`\`\``, sources: [], code: { language, code } };
    },
  };
  const offered = (skill: DivergentSkillName) =>
    skill === 'librarySearch' ? Boolean(library) : skill === 'webSearch' ? Boolean(web) : true;
  return {
    available: () => DIVERGENT_SKILL_NAMES.filter(offered),
    unavailableReason: (skill, language) => (offered(skill) ? null : (MISSING[skill]?.[language] ?? skill)),
    run: (request) => {
      if (!offered(request.skill)) throw new Error(MISSING[request.skill]?.[request.language] ?? request.skill);
      return run[request.skill](request);
    },
  };
}
