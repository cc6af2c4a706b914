import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultKnowledgeFolder } from '../default-folder.ts';

/** A private copy of the shipped `knowledge/` folder that a test may edit; `remove()` deletes it. */
export async function copyKnowledgeFolder(): Promise<{ folder: string; remove: () => Promise<void> }> {
  const folder = await mkdtemp(join(tmpdir(), 'tm-knowledge-'));
  await cp(defaultKnowledgeFolder(), folder, { recursive: true });
  return { folder, remove: () => rm(folder, { recursive: true, force: true }) };
}
