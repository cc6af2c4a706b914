/**
 * The server in a process of its own, for the kill-and-restart test: `node --import tsx child-server.ts
 * <databaseUrl> <instanceId>`. The model comes from the OPENAI_* variables like in production; prints
 * `READY <url>` once it listens. Killed with SIGKILL, it leaves its runs exactly as a crash would.
 */
import { buildApp } from '../../src/app.ts';

const [databaseUrl, instanceId] = process.argv.slice(2);
const app = await buildApp({ databaseUrl, instanceId, requireToken: false, localTokenFile: null });
const url = await app.start(0, '127.0.0.1');
console.log(`READY ${url}`);
