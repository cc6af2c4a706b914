#!/usr/bin/env node
// The package ships TypeScript sources (no build step in this monorepo): register tsx's loader, then run.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src/cli.ts');
await runCli(process.argv.slice(2));
