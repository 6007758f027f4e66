/** A failure the HTTP layer itself answers (route access, request parsing); services throw `DomainError` instead. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}
