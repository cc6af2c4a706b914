import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as operations from '@thinkingmap/client';
import { buildSchema, type DocumentNode, validate } from 'graphql';
import { describe, expect, it } from 'vitest';

const schemaFile = join(process.cwd(), '../server/schema.graphql');
const schema = buildSchema(readFileSync(schemaFile, 'utf8'));

/** The client documents the web workspace sends. */
const USED = [
  'VIEWER',
  'MAPS',
  'NODE',
  'WORKSPACE_MAP',
  'WORKSPACE_MAP_EVENTS',
  'CREATE_MAP',
  'DELETE_MAP',
  'CREATE_NODE',
  'UPDATE_NODE',
  'DELETE_NODE',
  'ADD_DEPENDENCY',
  'REMOVE_DEPENDENCY',
  'ADD_CONTEXT_ITEM',
  'REMOVE_CONTEXT_ITEM',
  'POST_MESSAGE',
  'SET_CONCLUSION',
  'CLEAR_CONVERSATION',
  'PROCESS_NODE',
  'REPLY_TO_AGENT',
  'REVIEW_DECOMPOSITION',
  'CANCEL_RUN',
  'RUNS',
  'PENDING_QUESTIONS',
  'AGENT_MODEL',
] as const;

describe('the operations the web workspace sends', () => {
  it.each(USED)('%s should be valid against the committed schema (apps/server/schema.graphql)', (name) => {
    const document = (operations as unknown as Record<string, DocumentNode>)[name];
    expect(document, name).toBeDefined();
    expect(validate(schema, document!).map((e) => e.message)).toEqual([]);
  });
});
