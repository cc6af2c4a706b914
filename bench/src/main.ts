// pnpm bench's entry: the benches that run the product in this process (agents, divergent, consultation) measure it
// with the V8 flags the server starts with (SERVER_FLAGS, as `apps/server start` passes them), as the child servers
// of the others are; then run.ts prints the figures.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SERVER_FLAGS } from './child-server.ts';

if (SERVER_FLAGS.every((flag) => process.execArgv.includes(flag))) {
  await import('./run.ts');
} else {
  const run = fileURLToPath(new URL('./run.ts', import.meta.url));
  const { status, signal } = spawnSync(process.execPath, [...SERVER_FLAGS, '--import', 'tsx', run], {
    stdio: 'inherit',
  });
  process.exit(status ?? (signal ? 1 : 0));
}
