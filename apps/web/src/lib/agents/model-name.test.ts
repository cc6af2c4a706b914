import { describe, expect, it } from 'vitest';
import { modelName } from './model-name.ts';

describe('modelName', () => {
  it('should keep the model’s name and leave out addresses and configuration names', () => {
    expect(modelName('gpt-4o-mini via https://api.example.com/v1')).toBe('gpt-4o-mini');
    expect(modelName('qwen2.5 http://127.0.0.1:8080/v1')).toBe('qwen2.5');
    expect(modelName('offline model (no OPENAI_API_KEY / OPENAI_BASE_URL configured)')).toBe('offline model');
    expect(modelName('  ')).toBe('—');
  });
});
