import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from './http-error.js';

/** No request of ours nests this deep; a deeper one would overflow the stack of whatever walks it (a 500). */
const MAX_DEPTH = 64;
class NestedTooDeeply extends Error {}

/** The path of the first string holding a NUL character, named as validation errors name fields. */
function nulPath(value: unknown, path: string, depth = 0): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (typeof value !== 'object' || value === null || Buffer.isBuffer(value)) return undefined;
  if (depth >= MAX_DEPTH) throw new NestedTooDeeply();
  for (const [key, item] of Object.entries(value)) {
    const found = nulPath(item, path === '' ? key : `${path}.${key}`, depth + 1);
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
    let path: string | undefined;
    try {
      path = nulPath(value, '');
    } catch (error) {
      if (error instanceof NestedTooDeeply) return new HttpError(400, `${context}: is nested more than ${MAX_DEPTH} levels deep`);
      throw error;
    }
    if (path === undefined) continue;
    const field = path === '' ? context : /^\d/.test(path) ? `${context}.${path}` : path;
    return new HttpError(400, `${field}: must not contain a NUL character`);
  }
  return undefined;
}
