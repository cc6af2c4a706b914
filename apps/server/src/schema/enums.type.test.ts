import * as enums from '@thinkingmap/db/enums';
import { GraphQLEnumType, type GraphQLObjectType, getNamedType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { schema } from './schema.ts';

/** Facts of `@thinkingmap/db/enums` stored as plain strings, and exposed as `String` fields (values with hyphens). */
const STRING_FACTS = ['QuestionKind', 'AgentGraph'];

describe('the GraphQL enums', () => {
  // The enum objects (`{ VALUE: 'VALUE' }`), not the lists derived from them (ACTIVE_RUN_STATUSES).
  const prismaEnums = (Object.entries(enums) as [string, object][]).filter(
    ([name, value]) => typeof value === 'object' && !Array.isArray(value) && !STRING_FACTS.includes(name),
  );

  it('should include every Prisma enum', () => {
    expect(prismaEnums.map(([name]) => name)).toEqual(expect.arrayContaining(['NodeStatus', 'Language', 'RunStatus']));
    expect(prismaEnums.length).toBeGreaterThanOrEqual(14);
  });

  it.each(prismaEnums)('should offer exactly the values of the Prisma enum %s, each meaning itself', (name, values) => {
    const type = schema.getType(name);
    expect(type).toBeInstanceOf(GraphQLEnumType);
    const graphqlValues = (type as GraphQLEnumType).getValues();
    expect(graphqlValues.map((value) => value.name).sort()).toEqual(Object.values(values).sort());
    for (const value of graphqlValues) expect(value.value).toBe(value.name);
  });

  it.each([
    ['DivergentTask', 'status', 'DivergentTaskStatus'],
    ['DivergentTaskFinished', 'status', 'DivergentTaskStatus'],
    ['DivergentSession', 'outcome', 'DivergentOutcome'],
    ['DivergentFinished', 'outcome', 'DivergentOutcome'],
    ['AgentStep', 'phase', 'AgentStepPhase'],
    ['ContextUpdated', 'action', 'ContextAction'],
    ['RunStepContext', 'source', 'StepContextSource'],
  ])('should type %s.%s as the enum %s, not as a String', (type, field, enumName) => {
    const fields = (schema.getType(type) as GraphQLObjectType).getFields();
    expect(getNamedType(fields[field]?.type)?.name).toBe(enumName);
  });
});
