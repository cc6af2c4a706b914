import { createRequest } from '@urql/core';
import { type DocumentNode, print } from 'graphql';
import { describe, expect, it } from 'vitest';
import { graphql } from './graphql.ts';
import { WORKSPACE_MAP } from './queries.ts';

describe('graphql (typed documents parsed when first used)', () => {
  it('should not parse a document until it is read', () => {
    // Bad text would throw at once if the document were parsed when written.
    // (gql.tada types broken text as never; the runtime object is what is checked here.)
    const broken: DocumentNode = graphql(`query Broken { map(id: "x") {`) as unknown as DocumentNode;
    expect(broken.kind).toBe('Document');
    expect(() => broken.definitions).toThrow(/Syntax Error|Expected/);
  });

  it('should give the parsed document with its fragments, parsed once, and urql the same key each time', () => {
    const definitions = WORKSPACE_MAP.definitions;
    expect(WORKSPACE_MAP.definitions).toBe(definitions);
    expect(definitions.map((d) => ('name' in d ? d.name?.value : ''))).toEqual(
      expect.arrayContaining(['WorkspaceMap', 'WorkspaceMapFields', 'WorkspaceNodeFields', 'NodeFields']),
    );
    expect(print(WORKSPACE_MAP)).toContain('fragment NodeFields on Node');
    const first = createRequest(WORKSPACE_MAP, { id: 'm1' });
    expect(createRequest(WORKSPACE_MAP, { id: 'm1' }).key).toBe(first.key);
    expect(createRequest(WORKSPACE_MAP, { id: 'm2' }).key).not.toBe(first.key);
  });
});
