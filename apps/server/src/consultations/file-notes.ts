import { constants } from 'node:fs';
import { lstat, mkdir, open, readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { AgentError, normalizeNotePath } from '@thinkingmap/agent-core';
import { NotFoundError, ValidationError } from '../commands/domain-errors.ts';

/** A note file of a map. */
export interface NoteFile {
  path: string;
  size: number;
  updatedAt: Date;
}

const refused = (why: string) => new AgentError('INVALID_INPUT', `note path refused: ${why}`);

/**
 * Notes as Markdown files under `<baseDir>/<mapId>/`. Paths are normalised by agent-core's
 * `normalizeNotePath` (no traversal, no absolute path), and every folder on the way and the file itself
 * must not be a symbolic link: a link placed in the folder cannot lead a write or a read outside it. Files
 * are written with `O_NOFOLLOW`-like care: an existing link at the file's place is refused before opening.
 */
export class FileNotes {
  constructor(readonly baseDir: string) {}

  /** The folder of a map's notes. */
  folderOf(mapId: string): string {
    if (!/^[a-z0-9]+$/i.test(mapId)) throw refused('bad map id');
    return join(this.baseDir, mapId);
  }

  /** Writes (or replaces) a note; returns its normalised path. */
  async write(mapId: string, path: string, content: string): Promise<string> {
    const normal = normalizeNotePath(path);
    const folder = this.folderOf(mapId);
    await mkdir(folder, { recursive: true });
    const target = await this.checkedPath(folder, normal, true);
    // O_NOFOLLOW: a link put in place after the check is still not followed.
    const handle = await open(
      target,
      constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW,
    );
    try {
      await handle.writeFile(content, 'utf8');
      await handle.truncate(Buffer.byteLength(content));
    } finally {
      await handle.close();
    }
    return normal;
  }

  /** Reads a note; a refused path is a ValidationError, a missing one NotFoundError. */
  async read(mapId: string, path: string): Promise<string> {
    let target: string;
    try {
      target = await this.checkedPath(this.folderOf(mapId), normalizeNotePath(path), false);
    } catch (error) {
      if (error instanceof AgentError) throw new ValidationError('path', error.message);
      throw error;
    }
    try {
      return await readFile(target, 'utf8');
    } catch {
      throw new NotFoundError('Note', path);
    }
  }

  /** Every note of a map, by path. */
  async list(mapId: string): Promise<NoteFile[]> {
    const folder = this.folderOf(mapId);
    const found: NoteFile[] = [];
    const walk = async (dir: string) => {
      let entries: import('node:fs').Dirent[];
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries) {
        const full = join(dir, entry.name);
        if (entry.isDirectory()) await walk(full);
        else if (entry.isFile()) {
          const stat = await lstat(full);
          found.push({ path: relative(folder, full).split(sep).join('/'), size: stat.size, updatedAt: stat.mtime });
        }
      }
    };
    await walk(folder);
    return found.sort((a, b) => a.path.localeCompare(b.path));
  }

  /** The absolute file of a normalised path, after refusing symbolic links on the way; creates folders if asked. */
  private async checkedPath(folder: string, normal: string, create: boolean): Promise<string> {
    const root = await lstat(folder).catch(() => null);
    if (root?.isSymbolicLink()) throw refused('the notes folder is a symbolic link');
    const parts = normal.split('/');
    let at = folder;
    for (const [index, part] of parts.entries()) {
      at = join(at, part);
      const stat = await lstat(at).catch(() => null);
      if (stat?.isSymbolicLink()) throw refused('symbolic links are not followed');
      const last = index === parts.length - 1;
      if (!last && !stat && create) await mkdir(at);
      if (!last && stat && !stat.isDirectory()) throw refused('a file is in the way');
      if (last && stat?.isDirectory()) throw refused('it is a folder');
    }
    return at;
  }
}
