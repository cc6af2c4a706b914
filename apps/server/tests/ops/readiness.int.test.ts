import { OfflineModel } from '@thinkingmap/agent-core';
import { createTestDatabase, testProviders } from '@thinkingmap/db/testing';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { eventually } from '../helpers/agent-driver.ts';
import { startPrivateRedis } from '../helpers/private-redis.ts';
import { startTestServer } from '../helpers/test-server.ts';

const providers = await testProviders();

async function readiness(base: string) {
  const response = await fetch(`${base}/readyz`);
  return {
    status: response.status,
    body: (await response.json()) as { status: string; checks: Record<string, string> },
  };
}

describe('readiness', () => {
  it.runIf(providers.includes('postgresql'))(
    'should answer 503 naming the database when its PostgreSQL database is gone, while /healthz stays up',
    async () => {
      const testDb = await createTestDatabase('postgresql');
      const db = await testDb.open();
      const app = await buildApp({ db, requireToken: true, localTokenFile: null, model: new OfflineModel() });
      const base = await app.start(0);
      try {
        expect(await readiness(base)).toEqual({
          status: 200,
          body: { status: 'ready', checks: { database: 'ok', bus: 'ok' } },
        });
        await testDb.drop(); // terminates the app's connections and removes the database
        const down = await readiness(base);
        expect(down.status).toBe(503);
        expect(down.body.status).toBe('unavailable');
        expect(down.body.checks.database).toMatch(/^unreachable: /);
        expect(down.body.checks.bus).toBe('ok');
        expect((await fetch(`${base}/healthz`)).status).toBe(200);
      } finally {
        await app.stop();
        await db.close().catch(() => {});
      }
    },
  );

  it('should answer 503 naming the bus while Redis is down, and ready again once it is back', async () => {
    const redis = await startPrivateRedis();
    const server = await startTestServer('sqlite', { redisUrl: redis.url });
    const base = server.app.url();
    try {
      expect((await readiness(base)).status).toBe(200);
      await redis.stop();
      const down = await eventually(async () => {
        const r = await readiness(base);
        return r.status === 503 ? r : null;
      }, '/readyz to answer 503');
      expect(down.body).toMatchObject({ status: 'unavailable', checks: { database: 'ok' } });
      expect(down.body.checks.bus).toMatch(/^unreachable: Redis/);
      await redis.start();
      await eventually(async () => (await readiness(base)).status === 200, '/readyz to answer 200 again', 20_000);
    } finally {
      await server.close();
      await redis.stop();
    }
  });
});
