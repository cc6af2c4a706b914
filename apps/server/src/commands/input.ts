import { Language } from '@thinkingmap/db';
import { z } from 'zod';
import { ValidationError } from './domain-errors.ts';

/** Ids are Prisma cuids: 'c' and 24 lowercase letters or digits. */
export const ID_PATTERN = /^c[a-z0-9]{24}$/;

/** Limits on what a person can write; documented in the README. */
export const LIMITS = {
  title: 200,
  problem: 10_000,
  question: 1_000,
  goal: 2_000,
  constraint: 500,
  constraints: 20,
  content: 20_000,
  contextTitle: 200,
} as const;

export const id = z.string().regex(ID_PATTERN, 'is not a valid id');

/** Why a NUL character is refused: PostgreSQL cannot store it in text, SQLite can; both refuse it alike. */
export const NUL_REASON = 'must not contain NUL characters';
const hasNoNul = (value: string) => !value.includes('\u0000');

/** A trimmed string of 1..max characters. */
export const text = (max: number) =>
  z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .refine(hasNoNul, NUL_REASON);

/** A trimmed string of 0..max characters. */
export const optionalText = (max: number) =>
  z.string().trim().max(max, `must be at most ${max} characters`).refine(hasNoNul, NUL_REASON);

/** How deep a JSON value a person sends (an agent reply) may nest. */
export const MAX_JSON_DEPTH = 16;

/**
 * Checks a JSON value before anything else reads it: nested at most {@link MAX_JSON_DEPTH} levels (deeper values
 * overflow the stack of whatever serialises them), and no NUL character in any string or key. Walks without
 * recursion, so the check itself cannot overflow.
 */
export function checkJson(field: string, value: unknown): void {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [item, depth] = stack.pop()!;
    if (typeof item === 'string') {
      if (!hasNoNul(item)) throw new ValidationError(field, NUL_REASON);
      continue;
    }
    if (item === null || typeof item !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH)
      throw new ValidationError(field, `must not be nested more than ${MAX_JSON_DEPTH} levels deep`);
    for (const [key, child] of Object.entries(item)) {
      if (!hasNoNul(key)) throw new ValidationError(field, NUL_REASON);
      stack.push([child, depth + 1]);
    }
  }
}

export const constraints = z
  .array(text(LIMITS.constraint))
  .max(LIMITS.constraints, `must have at most ${LIMITS.constraints} items`);

export const language = z.enum(Language);

export const version = z.number().int().min(1, 'must be at least 1');

export const position = z.number().int().min(0, 'must not be negative').max(1_000_000, 'is too large');

/** A property of a value of unknown shape (a reply, a JSON column, a thrown value), or undefined. */
export function propertyOf(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null && name in value ? Reflect.get(value, name) : undefined;
}

/**
 * Validates `input` against `schema`; the first problem becomes a {@link ValidationError} naming the field
 * (dotted path) and the reason.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.length ? issue.path.join('.') : 'input';
  throw new ValidationError(field, issue.message);
}
