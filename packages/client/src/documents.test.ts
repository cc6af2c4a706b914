import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSchema, type DocumentNode, Kind, NoUnusedFragmentsRule, specifiedRules, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import * as client from './index.ts';

const schemaFile = join(dirname(fileURLToPath(import.meta.url)), '../../../apps/server/schema.graphql');
const schema = buildSchema(readFileSync(schemaFile, 'utf8'));

const isDocument = (value: unknown): value is DocumentNode =>
  typeof value === 'object' && value !== null && (value as DocumentNode).kind === Kind.DOCUMENT;

const documents = Object.entries(client).filter((entry): entry is [string, DocumentNode] => isDocument(entry[1]));
const isFragmentOnly = (document: DocumentNode) =>
  document.definitions.every((definition) => definition.kind === Kind.FRAGMENT_DEFINITION);

describe('the typed documents shared by the web app, the tests and the bench', () => {
  it('should include every operation the web workspace sends', () => {
    expect(documents.map(([name]) => name)).toEqual(expect.arrayContaining(['WORKSPACE_MAP', 'MAP_EVENTS', 'NODE']));
  });

  it.each(documents)(
    '%s should be valid against the committed schema (apps/server/schema.graphql)',
    (_name, document) => {
      // A fragment on its own is unused by definition; everything else is checked as for an operation.
      const rules = isFragmentOnly(document)
        ? specifiedRules.filter((rule) => rule !== NoUnusedFragmentsRule)
        : specifiedRules;
      expect(validate(schema, document, rules).map((error) => error.message)).toEqual([]);
    },
  );
});
