import { type GraphQLFieldResolver, GraphQLObjectType, type GraphQLSchema, getNamedType, isLeafType } from 'graphql';
import { type Deadline, objectLimitError, type RunTimeBudget, timeLimitError } from './query-limits.ts';

/** Throws the refusal once the budget is spent, and keeps it as the answer's one error. */
function refuseWhenSpent(budget: RunTimeBudget): void {
  if (budget.exceeded) throw budget.exceeded;
  if (Date.now() > budget.at) budget.exceeded = timeLimitError(budget.ms);
  else if (budget.objects > budget.maxObjects) budget.exceeded = objectLimitError(budget.maxObjects);
  if (budget.exceeded) throw budget.exceeded;
}

/** Counts what an object or list field resolved to: one object, or a list's length. */
function count(budget: RunTimeBudget, value: unknown): unknown {
  budget.objects += Array.isArray(value) ? value.length : value == null ? 0 : 1;
  refuseWhenSpent(budget);
  return value;
}

/** A promise or any thenable (Prisma's queries are thenables of their own). */
function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof Reflect.get(value, 'then') === 'function';
}

/**
 * Makes every object and list field of the schema's query types count the objects it resolves against the
 * request's run-time budget (set by `useRunTimeBudget`) and refuse to start, or to hand on its objects, once the
 * budget's time or objects are spent: where a runaway query spends its time — resolving the next object or list — it
 * stops, before the answer grows further. Scalar fields are left alone (they are most fields, and cheap). Changes
 * `schema` in place.
 */
export function boundAtRunTime(schema: GraphQLSchema): GraphQLSchema {
  const skip = new Set([schema.getMutationType(), schema.getSubscriptionType()]);
  for (const type of Object.values(schema.getTypeMap())) {
    if (!(type instanceof GraphQLObjectType) || skip.has(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const resolve = field.resolve;
      if (!resolve || isLeafType(getNamedType(field.type))) continue;
      field.resolve = ((source, args, context: Deadline, info) => {
        const budget = context.budget;
        if (!budget) return resolve(source, args, context, info);
        refuseWhenSpent(budget);
        const value = resolve(source, args, context, info);
        return isThenable(value) ? value.then((resolved) => count(budget, resolved)) : count(budget, value);
      }) as GraphQLFieldResolver<unknown, unknown>;
    }
  }
  return schema;
}
