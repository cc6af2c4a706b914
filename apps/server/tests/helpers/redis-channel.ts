import { randomUUID } from 'node:crypto';

/**
 * An event-bus channel of this test file's own on the shared Redis: files run side by side, and Redis pub/sub
 * channels are global to the server (not per database number), so each file's instances talk only to each other.
 */
export const fileRedisChannel = `thinkingmap:map-events:test-${randomUUID()}`;
