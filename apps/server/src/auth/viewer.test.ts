import { describe, expect, it } from 'vitest';
import { createBearerParser, parseBearer } from './viewer.ts';

describe('bearer tokens', () => {
  it('should read a token from a Bearer header or a bare token, and nothing from a blank one', () => {
    expect(parseBearer('Bearer tm_abc ')).toBe('tm_abc');
    expect(parseBearer('bearer   tm_abc')).toBe('tm_abc');
    expect(parseBearer('tm_abc')).toBe('tm_abc');
    expect(parseBearer('  ')).toBeNull();
    expect(parseBearer(undefined)).toBeNull();
  });

  it('should answer a header seen last as it was parsed, and each new header afresh', () => {
    const bearer = createBearerParser();
    expect(bearer('Bearer tm_one')).toBe('tm_one');
    expect(bearer('Bearer tm_one')).toBe('tm_one');
    expect(bearer('Bearer tm_two')).toBe('tm_two');
    expect(bearer(undefined)).toBeNull();
    expect(bearer('Bearer tm_one')).toBe('tm_one');
  });
});
