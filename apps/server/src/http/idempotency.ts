import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest, onSendHookHandler, preValidationHookHandler, RouteOptions } from 'fastify';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock.js';
import type { Database } from '../db/schema.js';
import { IdempotencyService, type KeyOwner } from '../modules/idempotency/idempotency.service.js';
import { HttpError } from './http-error.js';
import { isApiPath } from './route-access.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The Idempotency-Key this request holds while it runs; its answer is kept under it. */
    idempotencyKey: KeyOwner | null;
  }
}

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** Set on an answer given again for a key instead of doing the work again. */
export const REPLAYED_HEADER = 'idempotent-replayed';
const KEY_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;
const WRITES = new Set(['POST', 'PUT', 'DELETE']);

/**
 * What the key was first sent with: method, URL (with its query) and body. An upload's body is
 * read by its route, after this, as a stream: it is known here by its length alone.
 */
function requestHash(request: FastifyRequest): string {
  const body = request.headers['content-type']?.startsWith('multipart/') ? `multipart ${request.headers['content-length'] ?? ''}` : JSON.stringify(request.body ?? null);
  return crypto.createHash('sha256').update(`${request.method} ${request.url}\n${body}`).digest('hex');
}

/**
 * Once-only writes (DESIGN §11): a signed-in person's POST, PUT or DELETE carrying an
 * `Idempotency-Key` runs once; the same key with the same request again, from any process,
 * within a day, gets the first answer (status, type and body, marked `Idempotent-Replayed`),
 * waiting for it while the first still runs; with another request it is a 422. A server error
 * (5xx) is not kept, so a retry runs again, nor is a body that is not text (a stream), for the
 * same reason. Requests without the header work as before.
 */
export function registerIdempotency(app: FastifyInstance, db: Kysely<Database>, clock: Clock): void {
  app.decorateRequest('idempotencyKey', null);
  const store = new IdempotencyService(db, clock);

  // After the session check (onRequest) and the body's parsing, before its validation: a
  // refused body is an answer like any other, given again for the key.
  const claim: preValidationHookHandler = async (request, reply) => {
    const key = request.headers[IDEMPOTENCY_HEADER];
    if (key === undefined || request.principal === null || !WRITES.has(request.method)) return;
    if (typeof key !== 'string' || !KEY_PATTERN.test(key)) {
      throw new HttpError(400, 'Idempotency-Key: must be 8 to 64 letters, digits, - or _ (a UUID)');
    }
    const owner = { userId: request.principal.userId, key };
    const outcome = await store.claim(owner, requestHash(request));
    if (outcome.kind === 'claimed') {
      request.idempotencyKey = owner;
      return;
    }
    if (outcome.kind === 'mismatch') throw new HttpError(422, 'Idempotency-Key: was sent before with another request; make a new key for a new action');
    if (outcome.kind === 'busy') throw new HttpError(409, 'Idempotency-Key: the first request with this key is still being processed; try again later');
    const { status, contentType, body } = outcome.answer;
    reply.code(status).header(REPLAYED_HEADER, 'true');
    if (contentType !== null) reply.type(contentType);
    return reply.send(body ?? undefined);
  };

  const keep: onSendHookHandler = async (request, reply, payload) => {
    const owner = request.idempotencyKey;
    if (owner === null) return payload;
    request.idempotencyKey = null;
    const text = payload === null || payload === undefined ? null : typeof payload === 'string' ? payload : undefined;
    try {
      if (reply.statusCode >= 500 || text === undefined) await store.release(owner);
      else {
        const contentType = reply.getHeader('content-type');
        await store.finish(owner, { status: reply.statusCode, contentType: typeof contentType === 'string' ? contentType : null, body: text });
      }
    } catch (error) {
      request.log.error({ err: error }, 'could not keep the answer of an idempotency key');
    }
    return payload;
  };

  app.addHook('onRoute', (route: RouteOptions) => {
    if (!isApiPath(route.url) || route.config?.access === undefined || 'public' in route.config.access) return;
    if (![route.method].flat().some((method) => WRITES.has(method))) return;
    route.preValidation = [...(route.preValidation === undefined ? [] : [route.preValidation].flat()), claim];
    route.onSend = [...(route.onSend === undefined ? [] : [route.onSend].flat()), keep];
  });
}
