import { healthSchema } from '@cloud-classroom/shared/http';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test/test-app.js';

describe('GET /api/health', () => {
  it('answers without a session, naming the database in use', async () => {
    const app = await buildTestApp();
    try {
      const response = await app.inject({ method: 'GET', url: '/api/health' });
      expect(response.statusCode).toBe(200);
      const body = healthSchema.parse(response.json());
      expect(body.status).toBe('UP');
      expect(body.database).toBe(process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite');
      expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
    } finally {
      await app.close();
    }
  });
});

describe('GET /api/health/ready', () => {
  it('is ready while the database answers, and a 503 with words once it does not', async () => {
    const app = await buildTestApp();
    try {
      const ready = await app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ status: 'READY' });
      // The database gone from under the node (its connections closed).
      await app.services.database.db.destroy();
      const gone = await app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(gone.statusCode).toBe(503);
      expect(gone.json()).toMatchObject({ status: 503, message: 'not ready: the database does not answer' });
      // The liveness probe still says the process lives.
      expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    } finally {
      await app.close().catch(() => undefined);
    }
  });
});
