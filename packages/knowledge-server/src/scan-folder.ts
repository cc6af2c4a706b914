import { readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

/** File name endings the knowledge server reads. */
export const KNOWLEDGE_EXTENSIONS = ['.md', '.markdown', '.mdx', '.txt'] as const;

/** A knowledge file found on disk with what tells whether it changed since it was indexed. */
export interface ScannedFile {
  /** Path relative to the folder, with `/` separators (stable across platforms, shown to people). */
  path: string;
  /** Absolute path, for reading. */
  absolutePath: string;
  /** `mtimeMs:ctimeMs:size`: differs whenever the file was written. */
  version: string;
}

function isKnowledgeFile(name: string): boolean {
  const lower = name.toLowerCase();
  return KNOWLEDGE_EXTENSIONS.some((extension) => lower.endsWith(extension));
}

/**
 * Lists the knowledge files under `folder`, recursively, skipping hidden entries and `node_modules`.
 * A missing folder is an empty knowledge base, not an error: the server starts and reports zero documents.
 */
export async function scanFolder(folder: string): Promise<ScannedFile[]> {
  let entries: string[];
  try {
    entries = await readdir(folder, { recursive: true });
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return [];
    throw error;
  }
  const files: ScannedFile[] = [];
  for (const entry of entries.sort()) {
    const parts = entry.split(sep);
    if (parts.some((part) => part.startsWith('.') || part === 'node_modules')) continue;
    if (!isKnowledgeFile(entry)) continue;
    const absolutePath = join(folder, entry);
    // A file gone between listing and stat (or a broken link) is not a knowledge file.
    const info = await stat(absolutePath).catch(() => undefined);
    if (!info?.isFile()) continue;
    files.push({
      path: relative(folder, absolutePath).split(sep).join('/'),
      absolutePath,
      version: `${info.mtimeMs}:${info.ctimeMs}:${info.size}`,
    });
  }
  return files;
}
