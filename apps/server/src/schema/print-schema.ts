import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { schema } from './schema.ts';

/** The schema as SDL, the committed contract (apps/server/schema.graphql). */
export function printedSchema(): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(new URL('../../schema.graphql', import.meta.url), printedSchema());
  console.log('wrote apps/server/schema.graphql');
}
