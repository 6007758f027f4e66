import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTestApp } from '../test/test-app.js';

const open = { access: { public: true as const } };

describe('response serialisation', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp();
    const typed = app.withTypeProvider<ZodTypeProvider>();
    const user = z.object({ id: z.number(), username: z.string(), dept: z.object({ name: z.string() }).optional() });
    typed.get('/api/test/user', { config: open, schema: { response: { 200: user } } }, async () => {
      // What a careless repository might hand back: the row, hash and all.
      const row = { id: 1, username: 'admin', passwordHash: '$argon2id$v=19$secret', dept: { name: 'R&D', budget: 9 } };
      return row as z.infer<typeof user>;
    });
    typed.get(
      '/api/test/dated',
      { config: open, schema: { response: { 200: z.object({ at: z.date() }) } } },
      async () => ({ at: new Date(Date.UTC(2024, 0, 2)), extra: 'hidden' }),
    );
  });
  afterAll(() => app.close());

  it('writes only the fields the schema declares, at any depth', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/test/user' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ id: 1, username: 'admin', dept: { name: 'R&D' } });
    expect(response.body).not.toContain('argon2');
    expect(response.body).not.toContain('budget');
  });

  it('falls back to zod for schemas JSON Schema cannot express', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/test/dated' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ at: '2024-01-02T00:00:00.000Z' });
    expect(response.body).not.toContain('hidden');
  });
});
