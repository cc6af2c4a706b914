import { z } from 'zod';
import type { ChatMessage } from '../ports/model-port.ts';

/** The outcome of parsing a model's text against a schema. */
export type ParseOutcome<T> = { ok: true; value: T } | { ok: false; error: string };

/** Strips a Markdown code fence and text around the outermost JSON object, which models often add. */
export function extractJson(text: string): string {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text);
  const body = (fenced?.[1] ?? text).trim();
  const start = body.indexOf('{');
  const end = body.lastIndexOf('}');
  return start >= 0 && end > start ? body.slice(start, end + 1) : body;
}

/** Parses `text` as JSON and validates it with `schema`; the error names what is wrong, for the repair call. */
export function parseStructured<T>(text: string, schema: z.ZodType<T>): ParseOutcome<T> {
  let json: unknown;
  try {
    json = JSON.parse(extractJson(text));
  } catch (error) {
    return { ok: false, error: `not valid JSON (${error instanceof Error ? error.message : String(error)})` };
  }
  const result = schema.safeParse(json);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, error: z.prettifyError(result.error) };
}

/** The JSON schema sent to the endpoint for a zod schema. */
export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  return z.toJSONSchema(schema, { target: 'draft-7', unrepresentable: 'any' }) as Record<string, unknown>;
}

/**
 * The system instruction appended to structured calls, so endpoints without JSON-schema support still comply:
 * the schema's name and the schema itself. It says "json" in lower case, which DeepSeek requires of prompts
 * sent with `response_format: json_object`.
 */
export function jsonInstruction(schema: z.ZodType, name = 'answer'): ChatMessage {
  return {
    role: 'system',
    content: `Answer in json: one JSON object only, no prose, matching the JSON schema "${name}":\n${JSON.stringify(jsonSchemaOf(schema))}`,
  };
}

/** The schema name a structured call's instruction names (see {@link jsonInstruction}), if any. */
export function instructedSchemaName(prompt: string): string | null {
  return /matching the JSON schema "([^"]+)"/.exec(prompt)?.[1] ?? null;
}

/** The two messages of the single repair attempt: the invalid answer and what was wrong with it. */
export function repairMessages(raw: string, error: string): ChatMessage[] {
  return [
    { role: 'assistant', content: raw },
    { role: 'user', content: `That answer is invalid: ${error}\nAnswer again with the corrected JSON object only.` },
  ];
}
