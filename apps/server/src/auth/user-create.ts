import { parseArgs } from 'node:util';
import { openDatabase, TokenScope } from '@thinkingmap/db';
import { env } from '../env.ts';
import { createUserWithToken } from './tokens.ts';

/**
 * `pnpm --filter @thinkingmap/server user:create <name> [--read-only] [--expires-in-days N] [--label text]`:
 * creates a person and their first token on the configured database (DATABASE_URL, else the embedded file) and
 * prints the token, once — only its hash is stored. Everything else (more tokens, revocation) is in the API.
 */
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    'read-only': { type: 'boolean', default: false },
    'expires-in-days': { type: 'string' },
    label: { type: 'string', default: 'first' },
  },
});
const name = positionals.join(' ').trim();
const days = values['expires-in-days'] === undefined ? undefined : Number(values['expires-in-days']);
if (!name || name.length > 200 || (days !== undefined && !(days > 0))) {
  process.stderr.write('usage: user:create <name> [--read-only] [--expires-in-days N] [--label text]\n');
  process.exit(2);
}
const db = await openDatabase({ url: env.DATABASE_URL });
try {
  const { user, token } = await createUserWithToken(db, name, {
    label: values.label,
    scope: values['read-only'] ? TokenScope.READ_ONLY : TokenScope.FULL,
    expiresAt: days === undefined ? null : new Date(Date.now() + days * 86_400_000),
  });
  process.stderr.write(`created ${user.name} (${user.id}); the token below is shown only now:\n`);
  process.stdout.write(`${token}\n`);
} finally {
  await db.close();
}
