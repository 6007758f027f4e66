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
