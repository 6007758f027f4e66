/**
 * What a service throws when a request cannot be done: the kind of failure in the domain's words,
 * never an HTTP status. `http/error-handler.ts` is the one place that maps a kind to a status.
 * A message about one field starts with it (`name: is required`), as every 4xx on the wire does.
 */
export type DomainErrorKind =
  | 'invalid' // the input breaks a rule: 400
  | 'unauthenticated' // no valid session or credentials: 401
  | 'forbidden' // the caller may not do this: 403
  | 'not-found' // 404
  | 'conflict' // the data's current state forbids it (in use, duplicate, stale): 409
  | 'too-large' // 413
  | 'rate-limited' // 429
  | 'unreachable' // a service the request needs (an S3 bucket) failed or refused: 502
  | 'disk-full'; // no room left on the disk for what the request would write: 507

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const invalidInput = (message: string) => new DomainError('invalid', message);
export const unauthenticated = (message: string) => new DomainError('unauthenticated', message);
export const forbidden = (message: string) => new DomainError('forbidden', message);
export const notFound = (message: string) => new DomainError('not-found', message);
export const conflict = (message: string) => new DomainError('conflict', message);
export const tooLarge = (message: string) => new DomainError('too-large', message);
export const rateLimited = (message: string) => new DomainError('rate-limited', message);
export const unreachable = (message: string) => new DomainError('unreachable', message);
export const diskFull = (message: string) => new DomainError('disk-full', message);
