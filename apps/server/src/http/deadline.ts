import { type GraphQLFieldResolver, GraphQLObjectType, type GraphQLSchema, getNamedType, isLeafType } from 'graphql';
import { type Deadline, timeLimitError } from './query-limits.ts';

/**
 * Makes every object and list field of the schema's query types refuse to start once the request's deadline has
 * passed (set by `useExecutionTimeout`): where a runaway query spends its time — resolving the next object or
 * list — it stops. Scalar fields are left alone (they are most fields, and cheap). Changes `schema` in place.
 */
export function stopAtDeadline(schema: GraphQLSchema): GraphQLSchema {
  const skip = new Set([schema.getMutationType(), schema.getSubscriptionType()]);
  for (const type of Object.values(schema.getTypeMap())) {
    if (!(type instanceof GraphQLObjectType) || skip.has(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const resolve = field.resolve;
      if (!resolve || isLeafType(getNamedType(field.type))) continue;
      field.resolve = ((source, args, context: Deadline, info) => {
        const deadline = context.deadline;
        if (deadline && Date.now() > deadline.at) throw timeLimitError(deadline.ms);
        return resolve(source, args, context, info);
      }) as GraphQLFieldResolver<unknown, unknown>;
    }
  }
  return schema;
}
