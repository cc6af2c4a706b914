import { describe, expect, it } from 'vitest';
import type { PendingEvent } from '../commands/map-event.ts';
import { RunEvents } from './run-events.ts';
import type { RunOutbox } from './run-outbox.ts';

/** The events a run queued, in order (the outbox's only part RunEvents uses is `push`). */
function recording() {
  const pushed: PendingEvent[] = [];
  const outbox = { push: (events: PendingEvent[]) => pushed.push(...events) } as unknown as RunOutbox;
  return { pushed, events: new RunEvents(outbox) };
}

describe('RunEvents', () => {
  it('should send the text streamed by tasks running at once each to its own node', () => {
    const { pushed, events } = recording();
    const run = (nodeId: string) => ({ runId: 'run', graph: 'divergent', nodeId });
    events.tokensStreamed(run('a'), 'alpha ');
    events.tokensStreamed(run('b'), 'beta ');
    events.tokensStreamed(run('a'), 'again');
    events.flushTokens();
    expect(pushed).toEqual([
      { type: 'AgentTokens', payload: { runId: 'run', nodeId: 'a', text: 'alpha again' } },
      { type: 'AgentTokens', payload: { runId: 'run', nodeId: 'b', text: 'beta ' } },
    ]);
    events.flushTokens();
    expect(pushed).toHaveLength(2);
  });
});
