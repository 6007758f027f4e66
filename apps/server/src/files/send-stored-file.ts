import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from '../http/error-handler.js';
import type { ByteRange, FileStore } from './file-store.js';

/**
 * `bytes=a-b`, `bytes=a-` or `bytes=-n` clipped to the file; 'unsatisfiable' when it starts past
 * the end; undefined (the whole file) when absent, malformed or asking for several ranges, which
 * no player needs.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | undefined {
  const match = header === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (match === null) return undefined;
  const [, from = '', to = ''] = match;
  if (from === '' && to === '') return undefined;
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(from);
  const end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  if (to !== '' && Number(to) < start) return undefined;
  return start >= size ? 'unsatisfiable' : { start, end };
}

/** The tag without its weakness mark: If-None-Match compares weakly (RFC 9110 §13.1.2). */
const opaque = (tag: string) => tag.trim().replace(/^W\//, '');

/** Whether the client's copy (by `If-None-Match`, else `If-Modified-Since`) is still the file. */
function isFresh(request: FastifyRequest, etag: string, modifiedAt: number): boolean {
  const noneMatch = request.headers['if-none-match'];
  if (noneMatch !== undefined) return noneMatch.split(',').some((tag) => opaque(tag) === etag || tag.trim() === '*');
  const modifiedSince = Date.parse(request.headers['if-modified-since'] ?? '');
  return !Number.isNaN(modifiedSince) && Math.floor(modifiedAt / 1000) * 1000 <= modifiedSince;
}

/**
 * Whether `If-Range` (absent, an entity tag or a date) still names this file, so that a range of
 * it may be sent: only an exact strong tag or the exact Last-Modified date does (RFC 9110 §13.1.5).
 */
function rangeStillValid(ifRange: string | undefined, etag: string, modifiedAt: number): boolean {
  if (ifRange === undefined) return true;
  const validator = ifRange.trim();
  if (validator.startsWith('"') || validator.startsWith('W/')) return validator === etag;
  const date = Date.parse(validator);
  return !Number.isNaN(date) && date === Math.floor(modifiedAt / 1000) * 1000;
}

/**
 * Answers a stored file with validators (ETag, Last-Modified, 304) and byte ranges (206, 416),
 * so videos can seek, with the caller's `headers` (content type, caching). False when there is
 * no such file, for the caller to answer its 404. (A boolean, not the reply: fastify's reply is
 * thenable, so an async function returning it resolves to undefined once the answer has gone.)
 */
export async function sendStoredFile(
  request: FastifyRequest,
  reply: FastifyReply,
  files: FileStore,
  key: string,
  headers: Record<string, string>,
  /** Awaited once the answer is known to carry bytes (200, or 206 with its range), before they go: to count a download. */
  beforeBytes?: (range: ByteRange | undefined) => Promise<void>,
): Promise<boolean> {
  const file = await files.open(key);
  if (file === undefined) return false;
  const stat = file.info;
  reply.headers(headers);
  // Strong: a stored file is never rewritten under its key (names are random and new for each
  // upload), so the same size and time mean the same bytes, and If-Range may rely on it.
  const etag = `"${stat.size.toString(16)}-${Math.floor(stat.modifiedAt).toString(16)}"`;
  reply.header('etag', etag).header('last-modified', new Date(stat.modifiedAt).toUTCString()).header('accept-ranges', 'bytes');
  if (isFresh(request, etag, stat.modifiedAt)) {
    file.close();
    reply.code(304).send();
    return true;
  }
  // If-Range: a range of a file that has changed since would splice two versions together.
  const ifRange = request.headers['if-range'];
  // Two If-Range headers name no one version: the whole file.
  const rangeAllowed = rangeStillValid(Array.isArray(ifRange) ? '' : ifRange, etag, stat.modifiedAt);
  const range = rangeAllowed ? parseRange(request.headers.range, stat.size) : undefined;
  if (range === 'unsatisfiable') {
    file.close();
    sendError(reply.header('content-range', `bytes */${stat.size}`), 416, 'range: starts past the end of the file');
    return true;
  }
  if (beforeBytes !== undefined) {
    try {
      await beforeBytes(range);
    } catch (error) {
      file.close();
      throw error;
    }
  }
  if (range === undefined) {
    reply.header('content-length', String(stat.size)).send(file.stream());
  } else {
    reply
      .code(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${stat.size}`)
      .header('content-length', String(range.end - range.start + 1))
      .send(file.stream(range));
  }
  return true;
}
