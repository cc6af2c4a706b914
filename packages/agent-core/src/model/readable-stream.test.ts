import { describe, expect, it } from 'vitest';
import { asBullets, asText, type ReadableFields, readableStream, readableText } from './readable-stream.ts';

const CONCLUSION: ReadableFields = { conclusion: asText, keyPoints: asBullets };

/** Streams `raw` in pieces of `size` characters and returns what was emitted, piece by piece. */
function streamed(raw: string, size: number, fields: ReadableFields = CONCLUSION): string[] {
  const emitted: string[] = [];
  const push = readableStream(fields, (text) => emitted.push(text));
  for (let i = 0; i < raw.length; i += size) push(raw.slice(i, i + size));
  return emitted;
}

describe('readableStream', () => {
  it('should emit the readable text of a JSON answer as it grows, never the JSON itself', () => {
    const answer = {
      kind: 'DECISION',
      conclusion: 'Open it, next to the university.',
      keyPoints: ['Students', 'Rent'],
      confidence: 0.8,
    };
    const emitted = streamed(JSON.stringify(answer), 5);
    expect(emitted.join('')).toBe('Open it, next to the university.\n• Students\n• Rent');
    expect(emitted.length).toBeGreaterThan(3);
    for (const piece of emitted) expect(piece).not.toMatch(/[{}"]|conclusion|keyPoints/);
  });

  it('should keep Chinese text and escapes intact when pieces split them', () => {
    const answer = { conclusion: '在大学旁边开店，\n"学生"是主要客群。' };
    for (const size of [1, 2, 3, 7]) expect(streamed(JSON.stringify(answer), size).join('')).toBe(answer.conclusion);
  });

  it('should show fields in the order the model writes them, so the text only grows', () => {
    const raw = '```json\n{"keyPoints":["Foot traffic"],"conclusion":"Near the station."}\n```';
    expect(streamed(raw, 4).join('')).toBe('• Foot traffic\nNear the station.');
  });

  it('should list proposed sub-questions by their question', () => {
    const fields = { rationale: asText, subQuestions: asBullets };
    const raw = JSON.stringify({
      subQuestions: [
        { key: 'q1', question: 'How big is the market?', goal: 'Demand', dependsOn: [] },
        { key: 'q2', question: 'Where should it be?', goal: 'Site', dependsOn: ['q1'] },
      ],
      rationale: 'Market first.',
    });
    expect(streamed(raw, 6, fields).join('')).toBe('• How big is the market?\n• Where should it be?\nMarket first.');
  });

  it('should emit nothing for an answer without readable fields', () => {
    expect(streamed('{"intent":"CONCLUDE","confidence":0.9}', 3)).toEqual([]);
    expect(readableText('not an object', CONCLUSION)).toBe('');
  });
});
