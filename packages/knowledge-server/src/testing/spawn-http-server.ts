import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The package's command-line entry, as a client would run it. */
export const BIN = fileURLToPath(new URL('../../bin/knowledge-server.js', import.meta.url));

/** Starts `thinkingmap-knowledge --http --port 0` as a child process and resolves with its MCP URL. */
export function spawnHttpServer(folder: string): Promise<{ url: URL; child: ChildProcess }> {
  const child = spawn(process.execPath, [BIN, '--http', '--port', '0', '--folder', folder], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening (\S+)/.exec(output);
      if (match) resolve({ url: new URL(match[1]!), child });
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${output}`)));
  });
}
