import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (where prisma/ and the default data folder live). */
export const repoDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** `prisma/migrations`, one folder per provider. */
export const migrationsDir = resolve(repoDir, 'prisma/migrations');
