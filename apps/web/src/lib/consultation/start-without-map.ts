import { SEND_CONSULTATION_MESSAGE, START_CONSULTATION } from '@thinkingmap/client';
import type { Client } from '@urql/core';
import type { ApiError } from '../api/api-error.ts';
import { runMutation } from '../api/request.ts';
import type { ConsultationStrategy } from './strategies.ts';

/**
 * Starts a consultation without a map and sends the person's problem as its first message: the server creates
 * the map from it (its understanding then waits for the person). Resolves with where to go on.
 */
export async function startWithoutMap(
  client: Client,
  problem: string,
  strategy: ConsultationStrategy,
): Promise<{ ok: true; consultationId: string; mapId: string | null } | { ok: false; error: ApiError }> {
  const started = await runMutation(client, START_CONSULTATION, { input: { strategy } });
  if (!started.ok) return started;
  const sent = await runMutation(client, SEND_CONSULTATION_MESSAGE, {
    input: { consultationId: started.value.id, text: problem },
  });
  if (!sent.ok) return sent;
  return { ok: true, consultationId: started.value.id, mapId: sent.value.consultation.mapId ?? null };
}
