import { describe, expect, it } from 'vitest';
import { StoredAnswer } from './stored-answer.ts';

/** A body as a response read whole hands it over: a view of a larger chunk. */
function viewOfLargerChunk(text: string): Buffer {
  const chunk = Buffer.alloc(8192);
  const length = chunk.write(text, 100);
  return chunk.subarray(100, 100 + length);
}

describe('stored answer', () => {
  const text = JSON.stringify({ data: { map: { nodes: Array.from({ length: 200 }, (_, i) => ({ id: `n${i}` })) } } });
  const request = (acceptEncoding: string) => ({ ifNoneMatch: undefined, acceptEncoding });

  it('should hold its bytes in memory of their own, whatever larger chunk they were read into', () => {
    const answer = new StoredAnswer('"e"', 200, { 'content-type': 'application/json' }, viewOfLargerChunk(text));
    for (const encoding of ['identity', 'gzip', 'br']) {
      const { body } = answer.sentTo(request(encoding));
      expect(body.buffer.byteLength).toBe(body.length);
    }
    expect(answer.sentTo(request('identity')).body.toString()).toBe(text);
  });

  it('should weigh each form it has made', () => {
    const answer = new StoredAnswer('"e"', 200, {}, Buffer.from(text));
    const sizes = [answer.size];
    for (const encoding of ['identity', 'gzip', 'br']) {
      answer.sentTo(request(encoding));
      sizes.push(answer.size);
    }
    expect(sizes[1]).toBeGreaterThan(sizes[0]!);
    expect(sizes[2]).toBeGreaterThan(sizes[1]!);
    expect(sizes[3]).toBeGreaterThan(sizes[2]!);
    expect(sizes[3]).toBeLessThan(2 * text.length + 5_000);
  });
});
