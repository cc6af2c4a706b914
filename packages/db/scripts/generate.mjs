// Generates one Prisma client per provider from the single prisma/schema.prisma.
// The prisma CLI wants its native schema engine on every command and cannot download it offline;
// `prisma generate` does not use it, so any existing file satisfies the check.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkgDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoDir = resolve(pkgDir, '../..');
const source = readFileSync(join(repoDir, 'prisma/schema.prisma'), 'utf8');
const outDir = join(pkgDir, 'generated');
const variantsDir = join(outDir, 'schemas');
mkdirSync(variantsDir, { recursive: true });

/** Writes a variant of the schema whose generator outputs are absolute and whose provider is `provider`. */
function variant(provider, withTypes) {
  let text = source
    .replace('provider = "sqlite"', `provider = "${provider}"`)
    .replace('"../packages/db/generated/sqlite"', JSON.stringify(join(outDir, provider)))
    .replace('"../packages/db/generated/pothos-types.ts"', JSON.stringify(join(outDir, 'pothos-types.ts')))
    .replace('"../packages/db/generated"', JSON.stringify(outDir));
  // The Pothos and Kysely types are generated once, from the SQLite variant: both databases share them.
  if (!withTypes) text = text.replace(/generator (pothos|kysely) \{[^}]*\}\n/g, '');
  const file = join(variantsDir, `${provider}.prisma`);
  writeFileSync(file, text);
  return file;
}

// The pothos generator is found on PATH, so the package's own bin folder goes first (also outside `pnpm run`).
const env = {
  ...process.env,
  PATH: `${join(pkgDir, 'node_modules/.bin')}${delimiter}${process.env.PATH ?? ''}`,
  PRISMA_SCHEMA_ENGINE_BINARY: process.execPath,
  PRISMA_HIDE_UPDATE_MESSAGE: '1',
};
for (const [provider, withTypes] of [
  ['sqlite', true],
  ['postgresql', false],
]) {
  const schema = variant(provider, withTypes);
  const bin = join(pkgDir, 'node_modules/.bin', process.platform === 'win32' ? 'prisma.cmd' : 'prisma');
  const result = spawnSync(bin, ['generate', '--schema', schema], {
    cwd: pkgDir,
    env,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (result.error) console.error(`prisma generate failed to start: ${result.error.message}`);
  if (result.status !== 0) process.exit(result.status ?? 1);
}
