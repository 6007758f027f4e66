import Cookies from 'js-cookie';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureHttpClient, HttpError } from './http-client';
import { FakeXhr } from '../test/fake-xhr';
import { UserAction } from './http-client';
import { uploadWithProgress } from './upload-with-progress';

const notifyError = vi.fn<(message: string) => void>();
const onUnauthorized = vi.fn<() => void>();
const onForbidden = vi.fn<() => void>();

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('the upload did not fail');
}

function body() {
  const form = new FormData();
  form.append('file', new File(['abc'], 'lesson.mp4', { type: 'video/mp4' }));
  return form;
}

describe('uploadWithProgress', () => {
  beforeEach(() => {
    FakeXhr.install();
    configureHttpClient({ notifyError, onUnauthorized, onForbidden, translate: (key) => key });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    notifyError.mockReset();
    onUnauthorized.mockReset();
    onForbidden.mockReset();
    Cookies.remove('TW-PLATFORM-TOEKN');
  });

  it('posts the body with the session’s header and the action’s idempotency key, and reports how much of it has been sent', async () => {
    Cookies.set('TW-PLATFORM-TOEKN', 'Bearer abc');
    const progress: number[] = [];
    const form = body();
    const upload = uploadWithProgress<{ id: number }>('api/media', form, { query: { name: 'x' }, action: new UserAction('upload-key-1'), onProgress: ({ percent }) => progress.push(percent) });
    const xhr = FakeXhr.last();
    expect([xhr.method, xhr.url, xhr.body]).toEqual(['POST', '/api/media?name=x', form]);
    expect(xhr.headers).toEqual({ Authorization: 'Bearer abc', 'Idempotency-Key': 'upload-key-1' });

    xhr.sendProgress(0, 400);
    xhr.sendProgress(100, 400);
    xhr.sendProgress(400, 400);
    xhr.respond(201, { id: 7 });
    expect(await upload).toEqual({ id: 7 });
    expect(progress).toEqual([0, 25, 100]);
  });

  it('turns a refusal into an HttpError with the server’s message and notifies it unless silent', async () => {
    const loud = uploadWithProgress('api/media', body());
    FakeXhr.last().respond(413, { status: 413, message: 'file: is larger than 2 GB', timestamp: 0 });
    const error = await failureOf(loud);
    expect(error).toBeInstanceOf(HttpError);
    expect([(error as HttpError).status, (error as HttpError).message]).toEqual([413, 'file: is larger than 2 GB']);
    expect(notifyError).toHaveBeenCalledWith('file: is larger than 2 GB');

    notifyError.mockReset();
    const quiet = uploadWithProgress('api/media', body(), { silent: true });
    FakeXhr.last().respond(400, { status: 400, message: 'file: is not a video', timestamp: 0 });
    expect(((await failureOf(quiet)) as HttpError).message).toBe('file: is not a video');
    expect(notifyError).not.toHaveBeenCalled();
  });

  it('ends the session on a 401 and goes to /401 on a 403, as every request does', async () => {
    const expired = uploadWithProgress('api/media', body(), { silent: true });
    FakeXhr.last().respond(401, { status: 401, message: 'expired', timestamp: 0 });
    expect(((await failureOf(expired)) as HttpError).status).toBe(401);
    expect(onUnauthorized).toHaveBeenCalledOnce();

    const forbidden = uploadWithProgress('api/media', body());
    FakeXhr.last().respond(403, 'not json');
    expect(((await failureOf(forbidden)) as HttpError).message).toBe('error.forbidden');
    expect(onForbidden).toHaveBeenCalledOnce();
  });

  it('says so when no answer came, or the upload timed out', async () => {
    const failed = uploadWithProgress('api/media', body());
    FakeXhr.last().fail('error');
    expect(((await failureOf(failed)) as HttpError).message).toBe('error.noStatus');
    const late = uploadWithProgress('api/media', body());
    FakeXhr.last().fail('timeout');
    expect(((await failureOf(late)) as HttpError).message).toBe('error.timeout');
    expect(FakeXhr.last().timeout).toBeGreaterThan(10_000);
  });

  it('cancels the request when the signal aborts, rejecting with its reason', async () => {
    const controller = new AbortController();
    const upload = uploadWithProgress('api/media', body(), { signal: controller.signal });
    controller.abort();
    expect(FakeXhr.last().aborted).toBe(true);
    expect(((await failureOf(upload)) as DOMException).name).toBe('AbortError');
    expect(notifyError).not.toHaveBeenCalled();
  });
});
