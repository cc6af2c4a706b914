import { describe, expect, it } from 'vitest';
import { detectLanguage } from './detect-language.ts';

describe('detectLanguage', () => {
  it.each([
    ['a Chinese problem', '我应该如何在三个月内学会机器学习？', 'zh'],
    ['Chinese that mixes in English names', '我们的 SaaS 产品要不要接入 OpenAI API？', 'zh'],
    ['Chinese around an English term', '机器学习 machine learning 怎么入门', 'zh'],
    ['Traditional Chinese', '我們應該把後端從 Python 遷移到 Go 嗎？', 'zh'],
    ['an English problem', 'Should we move our backend from Python to Go?', 'en'],
    [
      'an English sentence that starts with one Chinese word',
      '我们 Should we migrate our backend from Python to Go',
      'en',
    ],
    [
      'English with one Chinese name',
      'Plan the launch of our tea brand called 龍 in Europe, US and Japan next spring',
      'en',
    ],
    ['accented Latin text', 'Faut-il déménager le bureau à Berlin ?', 'en'],
    ['full-width Latin letters', 'ＡＰＩ ｄｅｓｉｇｎ', 'en'],
    ['only Han characters and digits', '2025 年 预算', 'zh'],
    ['empty text', '  ', 'en'],
    ['digits, punctuation and emoji only', '2025?! 🚀', 'en'],
  ])('should read %s (%s) as %s', (_case, text, expected) => {
    expect(detectLanguage(text)).toBe(expected);
  });
});
