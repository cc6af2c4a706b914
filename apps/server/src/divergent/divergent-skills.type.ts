import { DIVERGENT_SKILL_NAMES, type DivergentSkillName } from '@thinkingmap/agent-core';
import { builder } from '../schema/builder.ts';
import { DivergentSkillEnum } from './divergent-session.type.ts';

/** Why a skill is not offered to the planner (the web words each code in the person's language). */
const UNAVAILABLE = ['NO_KNOWLEDGE_SERVER', 'NO_SEARCH_PROVIDER'] as const;
type Unavailable = (typeof UNAVAILABLE)[number];

const UnavailableEnum = builder.enumType('DivergentSkillUnavailableReason', {
  description:
    'NO_KNOWLEDGE_SERVER: no knowledge MCP server is configured (librarySearch); NO_SEARCH_PROVIDER: the operator ' +
    'configured no web search provider (webSearch).',
  values: UNAVAILABLE,
});

interface SkillInfo {
  name: DivergentSkillName;
  available: boolean;
  reason: Unavailable | null;
}

const SkillInfoRef = builder.objectRef<SkillInfo>('DivergentSkillInfo').implement({
  description: 'A skill divergent tasks can use, whether this server offers it to the planner, and why not.',
  fields: (t) => ({
    name: t.field({ type: DivergentSkillEnum, resolve: (s) => s.name }),
    available: t.exposeBoolean('available'),
    reason: t.field({ type: UnavailableEnum, nullable: true, resolve: (s) => s.reason }),
  }),
});

builder.queryField('divergentSkills', (t) =>
  t.field({
    type: [SkillInfoRef],
    description: 'Every divergent skill with whether this server offers it, and a reason code when it does not.',
    resolve: (_root, _args, ctx) => {
      const offered = new Set(ctx.runs.divergentSkills().available());
      return DIVERGENT_SKILL_NAMES.map((name) => ({
        name,
        available: offered.has(name),
        reason: offered.has(name) ? null : name === 'librarySearch' ? 'NO_KNOWLEDGE_SERVER' : 'NO_SEARCH_PROVIDER',
      }));
    },
  }),
);
