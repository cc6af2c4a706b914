import { z } from 'zod';
import { ValidationError } from '../errors/domain-errors.ts';

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

/** A trimmed string of 1..max characters. */
export const text = (max: number) =>
  z.string().trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

/** A trimmed string of 0..max characters. */
export const optionalText = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`);

export const constraints = z
  .array(text(LIMITS.constraint))
  .max(LIMITS.constraints, `must have at most ${LIMITS.constraints} items`);

export const language = z.enum(['zh', 'en']);

export const version = z.number().int().min(1, 'must be at least 1');

export const position = z.number().int().min(0, 'must not be negative').max(1_000_000, 'is too large');

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
