import type { ChatRequest, StructuredRequest } from '../ports/model-port.ts';
import { readableStream } from './readable-stream.ts';

/**
 * The requests of the attempts of one structured call (the answer, then perhaps its repair), each with an
 * `onToken` that streams the readable text of `request.readable` instead of raw JSON. A repair attempt's
 * text follows the first attempt's after a blank line. Without `readable` or `onToken` nothing streams.
 */
export function readableAttempts(request: StructuredRequest<unknown>): { attempt(): ChatRequest } {
  const { onToken, readable } = request;
  let emitted = false;
  let attempts = 0;
  return {
    attempt() {
      attempts += 1;
      if (!onToken || !readable) {
        const { onToken: _ignored, ...silent } = request;
        return silent;
      }
      const separate = attempts > 1;
      let started = false;
      const push = readableStream(readable, (text) => {
        if (separate && emitted && !started) onToken('\n\n');
        started = true;
        emitted = true;
        onToken(text);
      });
      return { ...request, onToken: push };
    },
  };
}
