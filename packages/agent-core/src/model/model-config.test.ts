import { describe, expect, it } from 'vitest';
import { createModelFromEnv } from './create-model.ts';
import { modelConfigFromEnv } from './model-config.ts';

describe('model configuration', () => {
  it('should fall back to the offline model when nothing is configured', () => {
    expect(modelConfigFromEnv({})).toBeNull();
    expect(createModelFromEnv({}).offline).toBe(true);
  });

  it('should read key, base URL, model and per-agent overrides', () => {
    const config = modelConfigFromEnv({
      OPENAI_API_KEY: 'k',
      OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
      MODEL: 'm',
      MODEL_CONCLUDE: 'big',
      OPENAI_MAX_RETRIES: '3',
    });
    expect(config).toMatchObject({ apiKey: 'k', model: 'm', agentModels: { conclude: 'big' }, maxRetries: 3 });
    expect(createModelFromEnv({ OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' }).offline).toBe(false);
  });

  it('should read per-agent endpoints and the detection overrides', () => {
    const config = modelConfigFromEnv({
      OPENAI_API_KEY: 'hosted',
      MODEL_FRONT: 'qwen2.5:7b',
      OPENAI_BASE_URL_FRONT: 'http://127.0.0.1:11434/v1',
      OPENAI_API_KEY_PLANNER: 'other',
      OPENAI_RESPONSE_FORMAT: 'prompt',
      OPENAI_STREAM_USAGE: 'estimated',
    });
    expect(config?.agentModels).toEqual({ front: 'qwen2.5:7b' });
    expect(config?.agentEndpoints).toEqual({
      front: { baseURL: 'http://127.0.0.1:11434/v1', apiKey: undefined },
      planner: { baseURL: undefined, apiKey: 'other' },
    });
    expect(config?.capabilities).toEqual({ structuredOutput: 'prompt', streamUsage: 'estimated' });
  });

  it('should refuse a base URL that is not a URL', () => {
    expect(() => modelConfigFromEnv({ OPENAI_BASE_URL: 'nope' })).toThrow();
    expect(() => modelConfigFromEnv({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL_FRONT: 'nope' })).toThrow(
      /OPENAI_BASE_URL_FRONT/,
    );
  });
});
