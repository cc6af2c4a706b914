import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAgentError } from '../errors/agent-error.ts';
import { loadMcpConfig, parseMcpConfig } from './load-mcp-config.ts';
import { DEFAULT_TIMEOUT_MS } from './mcp-servers-config.ts';

describe('parseMcpConfig', () => {
  it('should read stdio and Streamable HTTP servers and apply the defaults', () => {
    const config = parseMcpConfig(
      {
        mcpServers: {
          local: { command: 'node', args: ['server.js', '--stdio'], env: { A: '1' }, timeoutMs: 500 },
          wiki: { url: 'https://wiki.example/mcp', headers: { Authorization: 'Bearer x' } },
        },
      },
      '/srv/app',
    );
    expect(config).toEqual({
      timeoutMs: DEFAULT_TIMEOUT_MS,
      connectTimeoutMs: 10_000,
      reconnect: { initialDelayMs: 1_000, maxDelayMs: 60_000 },
      mcpServers: {
        local: { command: 'node', args: ['server.js', '--stdio'], env: { A: '1' }, timeoutMs: 500, cwd: '/srv/app' },
        wiki: { url: 'https://wiki.example/mcp', headers: { Authorization: 'Bearer x' } },
      },
    });
  });

  it('should replace placeholders with environment variables so tokens stay out of the file', () => {
    const config = parseMcpConfig(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: `${NAME}` placeholders are what is tested
      { mcpServers: { wiki: { url: 'https://${HOST}/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } } } },
      '/',
      { HOST: 'wiki.example', TOKEN: 's3cret' },
    );
    expect(config.mcpServers.wiki).toEqual({
      url: 'https://wiki.example/mcp',
      headers: { Authorization: 'Bearer s3cret' },
    });
  });

  it('should resolve a relative working directory against the config file folder', () => {
    const config = parseMcpConfig({ mcpServers: { local: { command: 'node', cwd: 'tools' } } }, '/srv/app');
    expect(config.mcpServers.local).toMatchObject({ cwd: '/srv/app/tools' });
  });

  it('should refuse an entry that is neither stdio nor HTTP, naming where', () => {
    expect(() => parseMcpConfig({ mcpServers: { bad: { url: 'not a url' } } })).toThrow(/mcpServers\.bad/);
    expect(() => parseMcpConfig({ timeoutMs: -1 })).toThrow(/timeoutMs/);
  });
});

describe('loadMcpConfig', () => {
  it('should report unreadable JSON as INVALID_INPUT', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'tm-config-'));
    try {
      await writeFile(join(folder, 'mcp.json'), '{ nope');
      await expect(loadMcpConfig(join(folder, 'mcp.json'))).rejects.toSatisfy((e) => isAgentError(e, 'INVALID_INPUT'));
    } finally {
      await rm(folder, { recursive: true });
    }
  });
});
