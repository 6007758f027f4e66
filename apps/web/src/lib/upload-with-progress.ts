import { apiUrl, authorizationHeader, errorMessageOfBody, failedAnswer, idempotencyHeader, noAnswer, UPLOAD_TIMEOUT_MS, type CallOptions, type Query } from './http-client';

/** How far an upload has got: bytes sent of the body's total (the file plus the multipart framing). */
export type UploadProgress = { loaded: number; total: number; percent: number };

export type UploadOptions = CallOptions & {
  query?: Query;
  /** Called as the bytes leave; the last call says 100 % once the whole body is sent. */
  onProgress?: (progress: UploadProgress) => void;
};

/**
 * Sends a multipart body the way `http.post` does (the session's Authorization header, the
 * same refusals, notifications and timeout), but over XMLHttpRequest: fetch cannot tell how
 * much of a request body has been sent, and a 2 GB video deserves a real progress bar.
 * Aborting `signal` cancels the upload and rejects with the signal's reason, as fetch does.
 */
export function uploadWithProgress<T>(path: string, body: FormData, options: UploadOptions = {}): Promise<T> {
  const { query, onProgress, signal, silent, action } = options;
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const xhr = new XMLHttpRequest();
    const abort = () => xhr.abort();
    const settle = (finish: () => void) => {
      signal?.removeEventListener('abort', abort);
      try {
        finish();
      } catch (error) {
        reject(error);
      }
    };

    xhr.open('POST', apiUrl(path, query));
    for (const [name, value] of Object.entries({ ...authorizationHeader(), ...idempotencyHeader('POST', action) })) xhr.setRequestHeader(name, value);
    xhr.timeout = UPLOAD_TIMEOUT_MS;
    xhr.upload.onprogress = (event) => {
      if (!event.lengthComputable || event.total === 0) return;
      onProgress?.({ loaded: event.loaded, total: event.total, percent: Math.floor((event.loaded / event.total) * 100) });
    };
    xhr.onload = () =>
      settle(() => {
        if (xhr.status < 200 || xhr.status >= 300) failedAnswer(xhr.status, errorMessageOfBody(xhr.responseText, xhr.statusText), silent);
        resolve((xhr.responseText === '' ? undefined : JSON.parse(xhr.responseText)) as T);
      });
    xhr.onerror = () => settle(() => noAnswer(false, silent));
    xhr.ontimeout = () => settle(() => noAnswer(true, silent));
    xhr.onabort = () => settle(() => reject(signal?.reason ?? new DOMException('The upload was aborted', 'AbortError')));
    signal?.addEventListener('abort', abort);
    xhr.send(body);
  });
}
