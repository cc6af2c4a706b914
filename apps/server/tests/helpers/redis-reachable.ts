import { Redis } from 'ioredis';

/** The shared Redis of the test run (`REDIS_URL`, else the local default). */
export const sharedRedisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Whether a Redis server answers PING at `url`: one attempt, no retries, a refused connection is `false` (so
 * tests can skip, or wait for a server they started).
 */
export async function redisAnswers(url: string = sharedRedisUrl): Promise<boolean> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => {});
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}
