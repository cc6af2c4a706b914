import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type OpenAiServer, REFUSE_ALL, startOpenAiServer } from '@thinkingmap/agent-core/testing';
import { afterEach, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repo = join(dirname(fileURLToPath(import.meta.url)), '../../../..');

/** `pnpm model:check` from the repository's root, with `env` on top of a clean model configuration. */
async function modelCheck(env: Record<string, string>) {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(OPENAI_|MODEL)/.test(name)),
  ) as NodeJS.ProcessEnv;
  try {
    const { stdout, stderr } = await run('pnpm', ['--silent', 'model:check'], { cwd: repo, env: { ...clean, ...env } });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

let server: OpenAiServer | undefined;
afterEach(async () => {
  await server?.close();
});

describe('pnpm model:check', { timeout: 60_000 }, () => {
  it('should print what an endpoint refusing everything falls back to, and exit 0', async () => {
    server = await startOpenAiServer({
      refuse: REFUSE_ALL,
      respond: (request) =>
        request.body.tools
          ? { content: '', toolCall: { name: 'give_answer', arguments: '{"answer":5}' } }
          : { content: '{"answer":5}' },
    });
    const result = await modelCheck({ OPENAI_BASE_URL: server.baseURL, MODEL: 'local', LANG: 'zh_CN.UTF-8' });
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^端点\s+模型/);
    expect(lines.slice(1).map((line) => line.split(/\s{2,}/).slice(2, 5))).toEqual([
      ['structured', 'fallback', 'prompt'],
      ['stream', 'fallback', 'usage estimated'],
      ['tool', 'fallback', 'auto'],
    ]);
  });

  it('should exit 1 when the endpoint answers nothing usable', async () => {
    server = await startOpenAiServer({ respond: () => ({ status: 400, message: 'Model Not Exist' }) });
    const result = await modelCheck({ OPENAI_BASE_URL: server.baseURL, MODEL: 'nope' });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('Model Not Exist');
    expect(result.stderr).toContain('cannot run on it');
  });
});
