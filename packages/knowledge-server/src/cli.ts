import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createKnowledgeServer } from './create-knowledge-server.ts';
import { KnowledgeIndex } from './knowledge-index.ts';
import { parseCliArgs, USAGE } from './parse-cli-args.ts';
import { serveHttp } from './serve-http.ts';

/**
 * Runs the knowledge server from the command line. Diagnostics go to stderr only: over stdio, stdout
 * belongs to the protocol. Over HTTP the first stderr line is `listening <url>` so a parent process started
 * with `--port 0` can learn the port.
 */
export async function runCli(argv: readonly string[]): Promise<void> {
  let command: ReturnType<typeof parseCliArgs>;
  try {
    command = parseCliArgs(argv);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  if (command.kind === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const index = new KnowledgeIndex(command.folder);
  await index.refresh();
  const count = index.documents().length;
  if (command.kind === 'stdio') {
    await createKnowledgeServer(index).connect(new StdioServerTransport());
    // The client closes stdin to stop a stdio server (the MCP spec's shutdown): leave at once instead of making it
    // wait for its SIGTERM.
    process.stdin.once('end', () => process.exit(0));
    process.stderr.write(`thinkingmap-knowledge: ${count} documents from ${command.folder} over stdio\n`);
    return;
  }
  const running = await serveHttp(index, { port: command.port, host: command.host });
  process.stderr.write(`listening ${running.url.href} (${count} documents from ${command.folder})\n`);
  const stop = () => void running.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
