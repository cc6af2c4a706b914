import { ConclusionKind, DecompositionStrategy, NodeIntent } from '@thinkingmap/db/enums';
import { z } from 'zod';

/**
 * The enumerated facts agents use, re-exported from their one source (`@thinkingmap/db/enums`, generated from
 * the Prisma schema; no Prisma client behind it). Each is a `{ VALUE: 'VALUE' } as const` object and a type of
 * its values, so agents take the values from the same place as the API and the database.
 */
export * from '@thinkingmap/db/enums';

/** Zod schema of {@link NodeIntent}: what an agent decides to do with a node. */
export const NodeIntentSchema = z.enum(NodeIntent);
/** Zod schema of {@link DecompositionStrategy}: how a node's question is split. */
export const DecompositionStrategySchema = z.enum(DecompositionStrategy);
/** Zod schema of {@link ConclusionKind}: the kind of a conclusion. */
export const ConclusionKindSchema = z.enum(ConclusionKind);
