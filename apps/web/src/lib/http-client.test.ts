import { translate } from '@cloud-classroom/shared/messages';
import Cookies from 'js-cookie';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiUrl, configureHttpClient, http, HttpError, newIdempotencyKey, request, toSearchParams, UserAction } from './http-client';

type Call = { url: string; init: RequestInit };

let calls: Call[] = [];
const notifyError = vi.fn<(message: string) => void>();
const onUnauthorized = vi.fn<() => void>();
const onForbidden = vi.fn<() => void>();

/** fetch answers with `respond`, after honouring an aborted signal as the browser does. */
function stubFetch(respond: () => Response | Promise<Response>) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      if (init.signal?.aborted) throw init.signal.reason;
      return respond();
    }),
  );
}

const json = (body: unknown, status = 200) => Response.json(body, { status });

/** What a rejected request threw, to look at its status and message. */
async function failureOf(promise: Promise<unknown>): Promise<HttpError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error('the request did not fail');
}

describe('http client', () => {
  beforeEach(() => {
    calls = [];
    configureHttpClient({ notifyError, onUnauthorized, onForbidden, translate: (key) => translate('zh-CN', key) });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    notifyError.mockReset();
    onUnauthorized.mockReset();
    onForbidden.mockReset();
    Cookies.remove('TW-PLATFORM-TOEKN');
  });

  describe('query strings', () => {
    it('repeats the key of an array and leaves out empty values, keeping 0 and false', () => {
      const params = toSearchParams({
        sort: ['createTime,desc', 'id,asc'],
        blurry: '',
        deptId: undefined,
        enabled: null,
        page: 0,
        flag: false,
        ids: [1, '', 2],
      });
      expect(params.toString()).toBe('sort=createTime%2Cdesc&sort=id%2Casc&page=0&flag=false&ids=1&ids=2');
    });

    it('sends them on the URL, with no ? when nothing is left', async () => {
      stubFetch(() => json([]));
      await http.get('api/users', { sort: ['id,desc', 'username,asc'], blurry: '', page: 1 });
      await http.get('/api/menus/build', { blurry: '' });
      expect(calls.map((call) => call.url)).toEqual(['/api/users?sort=id%2Cdesc&sort=username%2Casc&page=1', '/api/menus/build']);
      expect(apiUrl('auth/code')).toBe('/auth/code');
    });
  });

  describe('bodies and headers', () => {
    it('sends a JSON body as JSON with its content type', async () => {
      stubFetch(() => json({ id: 1 }));
      const answer = await http.post<{ id: number }>('api/menus', { title: '菜单', pid: 0 });
      expect(answer).toEqual({ id: 1 });
      const init: RequestInit = calls[0]?.init ?? {};
      expect(init.method).toBe('POST');
      expect(init.body).toBe('{"title":"菜单","pid":0}');
      expect(new Headers(init.headers).get('content-type')).toBe('application/json');
    });

    it('sends FormData as it is, leaving the multipart content type to the browser', async () => {
      stubFetch(() => json({}));
      const form = new FormData();
      form.append('avatar', new Blob(['x']), 'a.png');
      await http.post('api/users/updateAvatar', form);
      const init: RequestInit = calls[0]?.init ?? {};
      expect(init.body).toBe(form);
      expect(new Headers(init.headers).has('content-type')).toBe(false);
    });

    it('sends no body and no content type without a body', async () => {
      stubFetch(() => json({}));
      await http.get('auth/info');
      expect(calls[0]?.init.body).toBeUndefined();
      expect(new Headers(calls[0]?.init.headers).has('content-type')).toBe(false);
    });

    it('puts the token cookie in the Authorization header', async () => {
      stubFetch(() => json({}));
      Cookies.set('TW-PLATFORM-TOEKN', 'Bearer abc.def');
      await http.get('auth/info');
      expect(new Headers(calls[0]?.init.headers).get('authorization')).toBe('Bearer abc.def');
    });

    it('sends no Authorization header without the cookie', async () => {
      stubFetch(() => json({}));
      await http.get('auth/code');
      expect(new Headers(calls[0]?.init.headers).has('authorization')).toBe(false);
    });

    it('sends an Idempotency-Key with every write: the action’s, numbered after its first write and the same again on its retry; else one of its own; none with a read', async () => {
      stubFetch(() => json({}));
      const action = new UserAction('action-key-1');
      await http.post('api/media', { name: 'a' }, { action });
      await http.put('api/categories', { id: 1 }, { action });
      const retry = action.retry();
      await http.post('api/media', { name: 'a' }, { action: retry });
      await http.put('api/categories', { id: 1 }, { action: retry });
      await http.post('api/categories', { name: 'b' });
      await http.delete('api/categories', [1]);
      await http.get('api/categories');
      const keys = calls.map((call) => new Headers(call.init.headers).get('idempotency-key'));
      expect(keys.slice(0, 4)).toEqual(['action-key-1', 'action-key-1-2', 'action-key-1', 'action-key-1-2']);
      expect(keys[4]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(keys[5]).toMatch(/^[0-9a-f-]{36}$/);
      expect(keys[5]).not.toBe(keys[4]);
      expect(keys[6]).toBeNull();
    });

    it('makes a UUID key where crypto.randomUUID is missing (a page served over plain http)', () => {
      const real = globalThis.crypto;
      vi.stubGlobal('crypto', { getRandomValues: <T extends ArrayBufferView>(array: T) => real.getRandomValues(array) });
      const keys = new Set(Array.from({ length: 20 }, () => newIdempotencyKey()));
      expect(keys.size).toBe(20);
      for (const key of keys) expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    });
  });

  describe('answers', () => {
    it('resolves undefined for 204 and for an empty 200', async () => {
      stubFetch(() => new Response(null, { status: 204 }));
      expect(await http.delete('api/menus', [1])).toBeUndefined();
      stubFetch(() => new Response('', { status: 200 }));
      expect(await http.put('api/menus', { id: 1 })).toBeUndefined();
    });

    it('resolves a blob for a download', async () => {
      stubFetch(() => new Response('a,b\n1,2', { headers: { 'content-type': 'text/csv' } }));
      const blob = await request<Blob>('GET', 'api/users/download', { responseType: 'blob' });
      expect(blob.type).toBe('text/csv');
      // Read as a page reads it: on Node 24, fetch builds the blob from jsdom's Blob, which has no text().
      const text = await new Promise<unknown>((resolve) => {
        const reader = new FileReader();
        reader.onload = () => resolve(reader.result);
        reader.readAsText(blob);
      });
      expect(text).toBe('a,b\n1,2');
    });
  });

  describe('errors (SPEC §8)', () => {
    it('401 calls onUnauthorized and rejects, without a notification', async () => {
      stubFetch(() => json({ status: 401, message: 'token expired' }, 401));
      const error = await failureOf(http.get('auth/info'));
      expect(error.status).toBe(401);
      expect(onUnauthorized).toHaveBeenCalledTimes(1);
      expect(onForbidden).not.toHaveBeenCalled();
      expect(notifyError).not.toHaveBeenCalled();
    });

    it('403 calls onForbidden and rejects, without a notification', async () => {
      stubFetch(() => json({ status: 403, message: 'no' }, 403));
      const error = await failureOf(http.get('api/roles'));
      expect(error.status).toBe(403);
      expect(onForbidden).toHaveBeenCalledTimes(1);
      expect(onUnauthorized).not.toHaveBeenCalled();
      expect(notifyError).not.toHaveBeenCalled();
    });

    it.each([400, 404, 500])("%i notifies the server's message once and rejects with it", async (status) => {
      stubFetch(() => json({ status, message: `message of ${status}` }, status));
      const error = await failureOf(http.post('api/menus', {}));
      expect(error).toMatchObject({ status, message: `message of ${status}` });
      expect(notifyError.mock.calls).toEqual([[`message of ${status}`]]);
    });

    it("readies the page's messages before it rejects with a server's message, but not for a 401, which reloads", async () => {
      const order: string[] = [];
      let ready = () => {};
      configureHttpClient({
        prepareMessages: () => {
          order.push('prepare');
          return new Promise<void>((resolve) => (ready = resolve));
        },
      });
      stubFetch(() => json({ status: 409, message: 'taken' }, 409));
      const failed = failureOf(http.post('api/menus', {})).then((error) => order.push(`rejected ${error.message}`));
      await vi.waitFor(() => expect(order).toEqual(['prepare']));
      expect(notifyError).not.toHaveBeenCalled();
      ready();
      await failed;
      expect(order).toEqual(['prepare', 'rejected taken']);

      order.length = 0;
      stubFetch(() => json({ status: 401, message: 'expired' }, 401));
      await failureOf(http.get('api/menus'));
      expect(order).toEqual([]);
      configureHttpClient({ prepareMessages: async () => {} });
    });

    it('falls back to the status text for an answer that is not JSON', async () => {
      stubFetch(() => new Response('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }));
      const error = await failureOf(http.get('api/users'));
      expect(error.message).toBe('Bad Gateway');
      expect(notifyError.mock.calls).toEqual([['Bad Gateway']]);
    });

    it("falls back to 'API request failed' with neither message nor status text", async () => {
      stubFetch(() => new Response('', { status: 500 }));
      expect((await failureOf(http.get('api/users'))).message).toBe('接口请求失败');
    });

    it('silent rejects without a notification', async () => {
      stubFetch(() => json({ status: 400, message: '验证码错误' }, 400));
      const error = await failureOf(http.post('auth/login', {}, { silent: true }));
      expect(error.message).toBe('验证码错误');
      expect(notifyError).not.toHaveBeenCalled();
    });

    it("a timeout notifies '网络请求超时' and rejects with status 0", async () => {
      vi.spyOn(AbortSignal, 'timeout').mockImplementation(() => AbortSignal.abort(new DOMException('signal timed out', 'TimeoutError')));
      stubFetch(() => json({}));
      const error = await failureOf(http.get('api/users'));
      expect(error).toMatchObject({ status: 0, message: '网络请求超时' });
      expect(notifyError.mock.calls).toEqual([['网络请求超时']]);
    });

    it('asks for a 10 s timeout', async () => {
      const timeout = vi.spyOn(AbortSignal, 'timeout');
      stubFetch(() => json({}));
      await http.get('api/users');
      expect(timeout).toHaveBeenCalledWith(10000);
    });

    it('gives an upload ten minutes instead', async () => {
      const timeout = vi.spyOn(AbortSignal, 'timeout');
      stubFetch(() => json({}));
      await http.post('api/localStorage', new FormData());
      expect(timeout).toHaveBeenCalledWith(600000);
    });

    it('a timeout with a caller signal still notifies the timeout', async () => {
      vi.spyOn(AbortSignal, 'timeout').mockImplementation(() => AbortSignal.abort(new DOMException('signal timed out', 'TimeoutError')));
      stubFetch(() => json({}));
      const error = await failureOf(http.get('api/users', {}, { signal: new AbortController().signal }));
      expect(error.message).toBe('网络请求超时');
    });

    it("a network failure notifies 'API request failed'", async () => {
      vi.stubGlobal(
        'fetch',
        vi.fn(async () => {
          throw new TypeError('Failed to fetch');
        }),
      );
      const error = await failureOf(http.get('api/users'));
      expect(error).toMatchObject({ status: 0, message: '接口请求失败' });
      expect(notifyError.mock.calls).toEqual([['接口请求失败']]);
    });

    it('shows the English texts through an English translate hook', async () => {
      configureHttpClient({ translate: (key) => translate('en-US', key) });
      vi.stubGlobal(
        'fetch',
        vi.fn(async () => {
          throw new TypeError('Failed to fetch');
        }),
      );
      expect((await failureOf(http.get('api/users'))).message).toBe('API request failed');
    });

    it('a request the caller aborted rejects with the abort, unnotified', async () => {
      stubFetch(() => json({}));
      const controller = new AbortController();
      controller.abort();
      await expect(http.get('api/users', {}, { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
      expect(notifyError).not.toHaveBeenCalled();
    });

    it('a blob request whose error answer is JSON shows the JSON message', async () => {
      stubFetch(() => json({ status: 400, message: '导出数据过多' }, 400));
      const error = await failureOf(request<Blob>('GET', 'api/users/download', { responseType: 'blob' }));
      expect(error.message).toBe('导出数据过多');
      expect(notifyError.mock.calls).toEqual([['导出数据过多']]);
    });
  });
});
