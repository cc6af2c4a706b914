import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultKnowledgeFolder } from './default-folder.ts';

/** What the command line asked for. */
export type CliCommand =
  | { kind: 'help' }
  | { kind: 'stdio'; folder: string }
  | { kind: 'http'; folder: string; port: number; host: string };

/** The command's usage text. */
export const USAGE = `Usage: thinkingmap-knowledge (--stdio | --http [--port N] [--host H]) [--folder DIR]

  --stdio        serve MCP over standard input and output (for a client that spawns this process)
  --http         serve MCP over Streamable HTTP at /mcp
  --port N       HTTP port (default 3901; 0 picks a free port)
  --host H       HTTP interface (default 127.0.0.1)
  --folder DIR   folder of .md/.txt files to index (default $TM_KNOWLEDGE_DIR, else the repo's knowledge/)`;

/**
 * Parses the command line. Throws an Error with a message fit for the terminal when it is invalid, so the
 * caller prints it with {@link USAGE} and exits non-zero.
 */
export function parseCliArgs(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): CliCommand {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      stdio: { type: 'boolean' },
      http: { type: 'boolean' },
      port: { type: 'string' },
      host: { type: 'string' },
      folder: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) return { kind: 'help' };
  if (values.stdio === values.http) throw new Error('Choose exactly one of --stdio and --http.');
  const folder = resolve(values.folder ?? env.TM_KNOWLEDGE_DIR ?? defaultKnowledgeFolder());
  if (values.stdio) return { kind: 'stdio', folder };
  const port = Number(values.port ?? '3901');
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Invalid --port: ${values.port}`);
  return { kind: 'http', folder, port, host: values.host ?? '127.0.0.1' };
}
