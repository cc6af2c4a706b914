import { describe, expect, it } from 'vitest';
import { detectLanguage } from './detect-language.ts';

describe('detectLanguage', () => {
  it('should detect Chinese problems', () => {
    expect(detectLanguage('我应该如何在三个月内学会机器学习？')).toBe('zh');
  });
  it('should detect Chinese that mixes in English names', () => {
    expect(detectLanguage('我们的 SaaS 产品要不要接入 OpenAI API？')).toBe('zh');
  });
  it('should detect English problems', () => {
    expect(detectLanguage('Should we move our backend from Python to Go?')).toBe('en');
  });
  it('should treat English with one stray Chinese word as English', () => {
    expect(detectLanguage('Plan the launch of our tea brand called 龍 in Europe, US and Japan next spring')).toBe('en');
  });
  it('should default to English for empty text', () => {
    expect(detectLanguage('  ')).toBe('en');
  });
});
