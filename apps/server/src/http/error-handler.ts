import type { ErrorBody } from '@cloud-classroom/shared/http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable, isReferenceViolation, isUniqueViolation } from '../db/constraint-violation.js';
import { diskFullMessage } from '../disk-full.js';
import { DomainError, type DomainErrorKind } from '../domain-error.js';
import { HttpError } from './http-error.js';
import { setSecurityHeaders } from './security-headers.js';

export function errorBody(status: number, message: string): ErrorBody {
  return { status, message, timestamp: Date.now() };
}

export function sendError(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send(errorBody(status, message));
}

export function sendNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendError(reply, 404, `not found: ${request.method} ${request.url.split('?')[0]}`);
}

// Fastify's own 4xx codes, reworded so the message names what was wrong with the request.
const fastifyClientErrors: Record<string, { status: number; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, message: 'body: is not valid JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, message: 'body: must not be empty for content type application/json' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, message: 'body: is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, message: 'body: content type is not supported' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, message: 'body: length does not match Content-Length' },
};

// Services check uniqueness and references first and answer with the field named; these catch
// the race where two requests pass that check at once, which must still be a 409, not a 500.
// A service that can name the field catches the violation itself (dictionary entry values do).
function constraintViolation(error: unknown): string | undefined {
  if (isUniqueViolation(error)) return 'conflict: a record with the same value already exists';
  if (isReferenceViolation(error)) return 'conflict: the record refers to, or is referred to by, another record';
  return undefined;
}

const statusOfKind: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  'too-large': 413,
  'rate-limited': 429,
  unreachable: 502,
  'disk-full': 507,
};

/** The one mapping from anything thrown to the wire's `{ status, message, timestamp }`. */
export function toErrorBody(error: unknown): ErrorBody {
  if (error instanceof DomainError) return errorBody(statusOfKind[error.kind], error.message);
  if (error instanceof HttpError) return errorBody(error.status, error.message);
  if (hasZodFastifySchemaValidationErrors(error)) {
    // Like eladmin, the first problem only, prefixed with the field it concerns.
    const [first] = error.validation;
    const context = error.validationContext ?? 'request';
    const path = first?.instancePath.replace(/^\//, '').replaceAll('/', '.') ?? '';
    // An item of a top-level array (`[1, "x"]`) has a bare index for a path: say whose.
    const field = path === '' ? context : /^\d/.test(path) ? `${context}.${path}` : path;
    return errorBody(400, `${field}: ${first?.message ?? 'invalid'}`);
  }
  // Said as what it is, and as passing: the pool reconnects by itself once the database is back.
  if (isDatabaseUnavailable(error)) return errorBody(503, 'the database is not answering; try again in a moment');
  // A write the disk had no room for, wherever it was: its writer removed what it had begun.
  const diskFull = diskFullMessage(error);
  if (diskFull !== undefined) return errorBody(statusOfKind['disk-full'], diskFull);
  const constraint = constraintViolation(error);
  if (constraint !== undefined) return errorBody(409, constraint);
  const fastifyError = error as Partial<FastifyError>;
  const known = fastifyError.code === undefined ? undefined : fastifyClientErrors[fastifyError.code];
  if (known !== undefined) return errorBody(known.status, known.message);
  const status = fastifyError.statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    return errorBody(status, fastifyError.message ?? 'bad request');
  }
  return errorBody(500, 'internal server error');
}

// What the router refuses before any route, hook or error handler is reached.
const frameworkErrorMessages: Record<string, (url: string) => string> = {
  FST_ERR_BAD_URL: (url) => `url: ${url.slice(0, 200)} is not a valid URL`,
  FST_ERR_MAX_PARAM_LENGTH: () => 'url: a path parameter is too long',
};

/**
 * Fastify's `frameworkErrors` option: the router's refusals (a path that does not decode, a
 * parameter over the length limit) answered in the one error shape, with the security headers,
 * which the `onRequest` hook that sets them never got to.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const url = request.url.split('?')[0] ?? '';
  setSecurityHeaders(reply, url);
  const message = frameworkErrorMessages[error.code]?.(url);
  const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  return sendError(reply, status, message ?? `url: ${error.message}`);
}

export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const body = toErrorBody(error);
    if (body.status >= 500) request.log.error({ err: error }, 'request failed');
    return sendError(reply, body.status, body.message);
  });
}
