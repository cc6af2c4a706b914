import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileNotes } from './file-notes.ts';

let base: string;
let outside: string;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'tm-notes-'));
  outside = await mkdtemp(join(tmpdir(), 'tm-outside-'));
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

describe('notes as files', () => {
  it('should write, list and read a note under the map folder', async () => {
    const notes = new FileNotes(base);
    expect(await notes.write('map1', 'plans/launch', '# Launch')).toBe('plans/launch.md');
    expect((await notes.list('map1')).map((n) => n.path)).toEqual(['plans/launch.md']);
    expect(await notes.read('map1', 'plans/launch.md')).toBe('# Launch');
    expect(await readFile(join(base, 'map1', 'plans', 'launch.md'), 'utf8')).toBe('# Launch');
  });

  it('should refuse traversal and absolute paths', async () => {
    const notes = new FileNotes(base);
    await expect(notes.write('map1', '../map2/x.md', 'x')).rejects.toThrow(/leaves the notes folder/);
    await expect(notes.write('map1', '/etc/x.md', 'x')).rejects.toThrow(/absolute/);
    await expect(notes.read('map1', '../../etc/passwd')).rejects.toThrow(/leaves the notes folder/);
  });

  it('should refuse a symbolic link on the way or at the file, writing nothing outside', async () => {
    const notes = new FileNotes(base);
    await mkdir(join(base, 'map1'), { recursive: true });
    await symlink(outside, join(base, 'map1', 'linked'));
    await expect(notes.write('map1', 'linked/x.md', 'x')).rejects.toThrow(/symbolic links/);
    await writeFile(join(outside, 'secret.md'), 'secret');
    await symlink(join(outside, 'secret.md'), join(base, 'map1', 'leak.md'));
    await expect(notes.write('map1', 'leak.md', 'overwritten')).rejects.toThrow(/symbolic links/);
    await expect(notes.read('map1', 'leak.md')).rejects.toThrow(/symbolic links/);
    expect(await readFile(join(outside, 'secret.md'), 'utf8')).toBe('secret');
  });
});
