import { describe, expect, it } from 'vitest';
import { TRACKED_FIELDS } from '../../../../server/src/history/map-state.ts';
import { translate } from '../i18n/translate.ts';
import { fieldWords, valueWords } from './history-words.ts';

describe('the words of the map history', () => {
  it('should name every field the server tracks in English and in Chinese, never by its internal name', () => {
    const fields = [...new Set(Object.values(TRACKED_FIELDS).flat())];
    for (const language of ['en', 'zh'] as const) {
      const other = translate(language, 'history.field.other');
      for (const field of fields) {
        const words = fieldWords(field, language);
        expect(words, `${language} ${field}`).not.toBe(other);
        expect(words, `${language} ${field}`).not.toMatch(/[a-z][A-Z]|Id\b/);
      }
    }
    expect(fieldWords('somethingNew', 'zh')).toBe('其他信息');
  });

  it('should show values in words: a node by its question, a status by its name, nothing as a dash', () => {
    const questionOf = (id: string) => (id === 'n1' ? 'Open a bakery?' : undefined);
    expect(valueWords('parentId', 'n1', 'en', questionOf)).toBe('Open a bakery?');
    expect(valueWords('status', 'COMPLETED', 'zh', questionOf)).toBe('已完成');
    expect(valueWords('status', 'ACTIVE', 'en', questionOf)).toBe('In progress');
    expect(valueWords('staleSince', null, 'en', questionOf)).toBe('—');
    expect(valueWords('staleReason', 'DEPENDENCY_CHANGED', 'en', questionOf)).not.toBe('DEPENDENCY_CHANGED');
    expect(valueWords('constraints', ['a', 'b'], 'zh', questionOf)).toBe('a、b');
    expect(valueWords('question', 'Why?', 'en', questionOf)).toBe('Why?');
  });
});
