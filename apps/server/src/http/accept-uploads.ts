import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';

/**
 * Lets the routes of one plugin take multipart uploads of at most `maxBytes`, one file each.
 * Registered per plugin rather than app-wide: other routes refuse multipart bodies (415), and
 * requests elsewhere do not carry the plugin's per-request state.
 */
export async function acceptUploads(app: FastifyInstance, maxBytes: number): Promise<void> {
  await app.register(fastifyMultipart, { limits: { fileSize: maxBytes, files: 1, fields: 10 } });
}
