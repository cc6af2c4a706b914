import type { ModelPort } from '../ports/model-port.ts';
import { modelConfigFromEnv } from './model-config.ts';
import { OfflineModel } from './offline-model.ts';
import { OpenAiModel } from './openai-model.ts';

/** The model the environment configures: {@link OpenAiModel} when a key or base URL is set, else {@link OfflineModel}. */
export function createModelFromEnv(env: Record<string, string | undefined> = process.env): ModelPort {
  const config = modelConfigFromEnv(env);
  return config ? new OpenAiModel(config) : new OfflineModel();
}
