import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { printedSchema } from './print-schema.ts';

describe('the GraphQL schema', () => {
  it('should match the committed apps/server/schema.graphql (run `pnpm --filter @thinkingmap/server schema:print`)', () => {
    const committed = readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8');
    expect(printedSchema()).toBe(committed);
  });

  it('should expose every mutation the map needs as a typed result union', () => {
    const sdl = printedSchema();
    for (const name of [
      'createMap',
      'updateMap',
      'deleteMap',
      'createNode',
      'updateNode',
      'deleteNode',
      'moveNode',
      'addDependency',
      'removeDependency',
      'addContextItem',
      'removeContextItem',
      'postMessage',
      'setConclusion',
      'clearConversation',
    ]) {
      expect(sdl).toMatch(new RegExp(`\\b${name}\\(`));
    }
    expect(sdl).toMatch(/union MutationAddDependencyResult = [^\n]*CycleError \| Dependency \|/);
  });
});
