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
  });

  it('should list in each mutation result only the errors its command can return', () => {
    const sdl = printedSchema();
    const unionOf = (mutation: string) => {
      const name = `Mutation${mutation[0]!.toUpperCase()}${mutation.slice(1)}Result`;
      return new RegExp(`union ${name} = ([^\\n]*)`).exec(sdl)?.[1]?.split(' | ');
    };
    const access = ['ForbiddenError', 'NotFoundError', 'ValidationError'];
    // A read-only token is refused every mutation with ForbiddenError, so every result lists it.
    expect(unionOf('createMap')).toEqual(['ForbiddenError', 'Map', 'ValidationError']);
    expect(unionOf('createApiToken')).toEqual(['CreatedApiToken', 'ForbiddenError', 'ValidationError']);
    expect(unionOf('updateNode')).toEqual([
      'ForbiddenError',
      'Node',
      'NotFoundError',
      'ValidationError',
      'VersionConflictError',
    ]);
    expect(unionOf('addDependency')).toEqual(['CycleError', 'Dependency', ...access]);
    expect(unionOf('processNode')).toEqual(['AgentRun', 'ConflictError', ...access]);
    expect(unionOf('deleteNode')).toEqual(['DeletedNodes', ...access]);
    // Approving a fork's proposal takes back what the original run created, which a later change can refuse.
    const reply = ['AgentRun', 'CycleError', 'ForbiddenError', 'NotFoundError', 'UndoRefusedError', 'ValidationError'];
    expect(unionOf('replyToAgent')).toEqual(reply);
    expect(unionOf('reviewDecomposition')).toEqual(reply);
    expect(unionOf('forkRun')).toEqual(['AgentRun', 'ConflictError', ...access]);
  });
});
