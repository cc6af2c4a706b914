import { describe, expect, it } from 'vitest';
import { parseCliArgs } from './parse-cli-args.ts';

describe('parseCliArgs', () => {
  it('should serve over stdio from the given folder', () => {
    expect(parseCliArgs(['--stdio', '--folder', '/tmp/kb'])).toEqual({ kind: 'stdio', folder: '/tmp/kb' });
  });

  it('should serve over HTTP on the given port, bound to loopback by default', () => {
    expect(parseCliArgs(['--http', '--port', '0'], { TM_KNOWLEDGE_DIR: '/srv/kb' })).toEqual({
      kind: 'http',
      folder: '/srv/kb',
      port: 0,
      host: '127.0.0.1',
    });
  });

  it('should default to the repository knowledge folder', () => {
    const command = parseCliArgs(['--stdio'], {});
    expect(command.kind === 'stdio' && command.folder.endsWith('/knowledge')).toBe(true);
  });

  it('should refuse both transports at once, neither, or a bad port', () => {
    expect(() => parseCliArgs(['--stdio', '--http'])).toThrow(/exactly one/);
    expect(() => parseCliArgs([])).toThrow(/exactly one/);
    expect(() => parseCliArgs(['--http', '--port', 'x'])).toThrow(/--port/);
  });
});
