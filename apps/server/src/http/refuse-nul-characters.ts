import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from './http-error.js';

/** The path of the first string holding a NUL character, named as validation errors name fields. */
function nulPath(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (typeof value !== 'object' || value === null || Buffer.isBuffer(value)) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const found = nulPath(item, path === '' ? key : `${path}.${key}`);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * PostgreSQL refuses a NUL character in text ("invalid byte sequence"), which would surface as a
 * 500 from whichever query first meets it; SQLite would store it and cut strings short elsewhere.
 * No field of ours has a use for one, so every request is refused with the field named, before
 * validation, on both databases alike.
 */
export function refuseNulCharacters(app: FastifyInstance): void {
  // A callback hook rather than an async one: every request passes here, and a promise per
  // request for a check that never waits is a cost for nothing.
  app.addHook('preValidation', (request, _reply, done) => {
    done(nulCharacterError(request));
  });
}

function nulCharacterError(request: FastifyRequest): HttpError | undefined {
  for (const [context, value] of [
    ['params', request.params],
    ['query', request.query],
    ['body', request.body],
  ] as const) {
    const path = nulPath(value, '');
    if (path === undefined) continue;
    const field = path === '' ? context : /^\d/.test(path) ? `${context}.${path}` : path;
    return new HttpError(400, `${field}: must not contain a NUL character`);
  }
  return undefined;
}
