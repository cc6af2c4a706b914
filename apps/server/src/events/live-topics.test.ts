import { describe, expect, it } from 'vitest';
import { LiveTopics, mapTopic } from './live-topics.ts';

describe('live topics', () => {
  it('should follow one topic by many subscribers without a listener warning', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    const topics = new LiveTopics();
    const subscriptions = Array.from({ length: 25 }, () => topics.subscribe(mapTopic('m')));
    try {
      // A Repeater starts listening on its first `next()`; each then waits for an event.
      const pending = subscriptions.map((subscription) => subscription.next());
      await new Promise<void>((resolve) => setImmediate(resolve));
      expect(topics.count(mapTopic('m'))).toBe(25);
      // Node emits its warning on a later tick of the process.
      await new Promise<void>((resolve) => setImmediate(resolve));
      expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([]);
      await Promise.all(subscriptions.map((subscription) => subscription.return()));
      await Promise.all(pending);
      expect(topics.count(mapTopic('m'))).toBe(0);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
