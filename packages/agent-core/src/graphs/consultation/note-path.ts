import { AgentError } from '../../errors/agent-error.ts';

const MAX_DEPTH = 5;
const MAX_LENGTH = 200;
// Control characters and what Windows reserves: a note's name must be writable on every system.
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
const FORBIDDEN = /[\u0000-\u001f\u007f<>:"|?*]/u;

/**
 * The relative path of a note as it is stored, from the path the planner chose: `/`-separated, without
 * `.` segments, ending in `.md` (added when the name has no extension). Refused with
 * `AgentError('INVALID_INPUT')`: absolute paths (`/x`, `\x`, `C:x`), any `..` segment, reserved or control
 * characters, names of only dots, paths deeper than 5 folders or longer than 200 characters. This is the
 * lexical half of the check; the file store also refuses symbolic links on the way.
 */
export function normalizeNotePath(path: string): string {
  const refuse = (why: string): never => {
    throw new AgentError('INVALID_INPUT', `note path refused: ${why}`);
  };
  const trimmed = path.trim();
  if (!trimmed) refuse('empty');
  if (/^[\\/]/.test(trimmed) || /^[a-zA-Z]:/.test(trimmed)) refuse('absolute paths are not allowed');
  const segments = trimmed.split(/[\\/]+/).filter((s) => s !== '' && s !== '.');
  if (segments.some((s) => s === '..')) refuse('it leaves the notes folder');
  if (segments.some((s) => FORBIDDEN.test(s))) refuse('reserved or control characters');
  if (segments.some((s) => /^\.+$/.test(s.trim()) || s.trim() !== s)) refuse('invalid name');
  if (segments.length === 0) refuse('empty');
  if (segments.length > MAX_DEPTH + 1) refuse('too deep');
  const last = segments.at(-1) ?? '';
  if (!/\.(md|markdown|txt)$/i.test(last)) segments[segments.length - 1] = `${last}.md`;
  const normal = segments.join('/');
  if (normal.length > MAX_LENGTH) refuse('too long');
  return normal;
}
