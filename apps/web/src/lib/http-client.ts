import { REQUEST_TIMEOUT_MS, TOKEN_COOKIE } from '@cloud-classroom/shared/constants';
import type { MessageKey } from '@cloud-classroom/shared/messages';
import Cookies from 'js-cookie';

/**
 * The one door to the API, with SPEC §7's conventions and §8's error catalogue.
 *
 * Built on fetch rather than axios (DESIGN.md §3): axios adds about 14 KiB gzipped, and the
 * login page, which must call the API, has a 130 KiB budget with React and the router
 * already spending about 80 of it. Everything the spec's interceptors do maps onto fetch.
 */

/** How long an upload may take: SPEC §9's 10 s is for calls, not for a large file on a slow line. */
export const UPLOAD_TIMEOUT_MS = 10 * 60 * 1000;

export type QueryValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[];
export type Query = Readonly<Record<string, QueryValue>>;

export type RequestOptions = {
  query?: Query;
  /** A FormData body goes out as multipart; anything else as JSON. */
  body?: unknown;
  /** 'blob' for downloads; an error answer is still read as the JSON error it carries. */
  responseType?: 'json' | 'blob';
  /** Callers that show the error themselves (the login form) turn the notification off. */
  silent?: boolean;
  signal?: AbortSignal;
  /** The user action this write belongs to, whose idempotency keys it carries (see `UserAction`). */
  action?: UserAction;
};

/**
 * What an api file's function passes on to its request: a form's submit hook asks for `silent`,
 * as it shows the refusal itself, and names the user action the request is part of.
 */
export type CallOptions = Pick<RequestOptions, 'silent' | 'signal' | 'action'>;

/** The methods that change something: each carries an `Idempotency-Key`. */
const WRITES = new Set(['POST', 'PUT', 'DELETE']);

/**
 * A fresh idempotency key: a random UUID. `crypto.randomUUID` exists on secure origins only,
 * and an intranet install is often served over plain http, where `getRandomValues` still is.
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * One thing a person did (a click on Save), whose writes the server does once (DESIGN §11): its
 * first write carries its key, a later write of the same action (an upload, then the save) the
 * key with its ordinal (`-2`, `-3`), since one key is one request. A retry of the action starts
 * again with the same key (`retry()`), so its writes carry the keys they carried the first time.
 */
export class UserAction {
  private sent = 0;

  constructor(readonly key: string = newIdempotencyKey()) {}

  retry(): UserAction {
    return new UserAction(this.key);
  }

  nextKey(): string {
    this.sent += 1;
    return this.sent === 1 ? this.key : `${this.key}-${this.sent}`;
  }
}

/** The `Idempotency-Key` header a request of `method` carries: the action's next key, else a key of its own; none on a read. */
export function idempotencyHeader(method: string, action: UserAction | undefined): Record<string, string> {
  return WRITES.has(method) ? { 'Idempotency-Key': action?.nextKey() ?? newIdempotencyKey() } : {};
}

/** What a failed request rejects with, after the catalogue's side effect has happened. */
export class HttpError extends Error {
  constructor(
    /** 0 when no answer came back (timeout, network). */
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export type HttpClientHooks = {
  /** 401: the session is gone. */
  onUnauthorized: () => void;
  /** 403: the caller lacks the permission. */
  onForbidden: () => void;
  /** Shows an error for NOTIFICATION_DURATION_MS. */
  notifyError: (message: string) => void;
  translate: (key: MessageKey) => string;
  /**
   * Runs before a server's message reaches the page, and never rejects: the login and learner
   * pages load the English catalogue there, by which an English message is found and shown in
   * the page's language (lib/use-locale-text).
   */
  prepareMessages: () => Promise<void>;
};

let hooks: HttpClientHooks = {
  onUnauthorized: () => {},
  onForbidden: () => {},
  notifyError: () => {},
  translate: (key) => key,
  prepareMessages: async () => {},
};

export function configureHttpClient(next: Partial<HttpClientHooks>): void {
  hooks = { ...hooks, ...next };
}

/** Configurable per deployment (VITE_API_BASE); the same origin by default. */
export const API_BASE = (import.meta.env.VITE_API_BASE ?? '/').replace(/\/?$/, '/');

export function apiUrl(path: string, query?: Query): string {
  const url = `${API_BASE}${path.replace(/^\//, '')}`;
  const search = toSearchParams(query).toString();
  return search === '' ? url : `${url}?${search}`;
}

/** Arrays repeat their key (`sort=a,asc&sort=b,desc`); empty values are left out. */
export function toSearchParams(query: Query | undefined): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    const values = Array.isArray(value) ? value : [value];
    for (const item of values) {
      if (item === undefined || item === null || item === '') continue;
      params.append(key, String(item));
    }
  }
  return params;
}

export function authorizationHeader(): Record<string, string> {
  const token = Cookies.get(TOKEN_COOKIE);
  return token === undefined ? {} : { Authorization: token };
}

/** The message of an error answer's body (`{ status, message, timestamp }`), or the status text when it is not one. */
export function errorMessageOfBody(text: string, statusText: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && 'message' in parsed && typeof parsed.message === 'string') {
      return parsed.message;
    }
  } catch {
    // Not JSON (a proxy's HTML page, say): fall back to the status text.
  }
  return statusText || undefined;
}

/** What a caller reading an error answer itself does before it shows the message (see `prepareMessages`). */
export function prepareServerMessages(): Promise<void> {
  return hooks.prepareMessages();
}

async function errorMessageOf(response: Response): Promise<string | undefined> {
  const message = errorMessageOfBody(await response.text().catch(() => ''), response.statusText);
  // A 401 reloads the page: its message is never shown.
  if (response.status !== 401) await hooks.prepareMessages();
  return message;
}

/** Shows an error the way a failed request does (a caller that asked for `silent` and then did not place it). */
export function notifyError(message: string): void {
  hooks.notifyError(message);
}

function fail(status: number, message: string, silent: boolean | undefined): never {
  if (!silent) hooks.notifyError(message);
  throw new HttpError(status, message);
}

/**
 * What every failed answer does, whoever sent the request: a 401 ends the session, a 403 goes
 * to /401, anything else is notified unless the caller shows it itself. Always throws.
 */
export function failedAnswer(status: number, message: string | undefined, silent: boolean | undefined): never {
  if (status === 401) {
    hooks.onUnauthorized();
    throw new HttpError(401, message ?? hooks.translate('error.sessionExpired'));
  }
  if (status === 403) {
    hooks.onForbidden();
    throw new HttpError(403, message ?? hooks.translate('error.forbidden'));
  }
  fail(status, message ?? hooks.translate('error.noStatus'), silent);
}

/** A request that got no answer: timed out, or the network failed. Always throws. */
export function noAnswer(timedOut: boolean, silent: boolean | undefined): never {
  fail(0, hooks.translate(timedOut ? 'error.timeout' : 'error.noStatus'), silent);
}

export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const { query, body, responseType = 'json', silent, signal, action } = options;
  const headers: Record<string, string> = { ...authorizationHeader(), ...idempotencyHeader(method, action) };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  // SPEC §9's 10 s is for calls; an upload of a large file on a slow line needs longer.
  const timeout = AbortSignal.timeout(body instanceof FormData ? UPLOAD_TIMEOUT_MS : REQUEST_TIMEOUT_MS);
  let response: Response;
  try {
    response = await fetch(apiUrl(path, query), {
      method,
      headers,
      body: payload,
      signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]),
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    noAnswer(timeout.aborted, silent);
  }

  if (!response.ok) failedAnswer(response.status, await errorMessageOf(response), silent);
  if (responseType === 'blob') return (await response.blob()) as T;
  const text = await response.text();
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

export const http = {
  get: <T>(path: string, query?: Query, options?: Omit<RequestOptions, 'query' | 'body'>) =>
    request<T>('GET', path, { ...options, query }),
  post: <T = void>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) =>
    request<T>('POST', path, { ...options, body }),
  put: <T = void>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) =>
    request<T>('PUT', path, { ...options, body }),
  delete: <T = void>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) =>
    request<T>('DELETE', path, { ...options, body }),
};
