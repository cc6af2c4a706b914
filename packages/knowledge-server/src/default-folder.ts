import { fileURLToPath } from 'node:url';

/**
 * The `knowledge/` folder at the repository root, which ships sample documents: the folder the embedded
 * default server indexes when no other is configured.
 */
export function defaultKnowledgeFolder(): string {
  return fileURLToPath(new URL('../../../knowledge/', import.meta.url));
}
