import type { MarkdownNode } from './markdown-map.ts';

/** A node for the renderers' tests, with defaults (first among its siblings, ready); pass what the test is about. */
export const node = (
  id: string,
  parentId: string | null,
  question: string,
  extra: Partial<MarkdownNode> = {},
): MarkdownNode => ({ id, parentId, position: 0, question, status: 'READY', ...extra });
