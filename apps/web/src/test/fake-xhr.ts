/** A stand-in for XMLHttpRequest that a test drives by hand: upload progress, the answer, a failure (tests only). */
import { vi } from 'vitest';

type Handler = ((event: ProgressEvent) => void) | null;

export class FakeXhr {
  static instances: FakeXhr[] = [];

  /** Replaces the global XMLHttpRequest until `vi.unstubAllGlobals()`. */
  static install(): void {
    FakeXhr.instances = [];
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
  }

  static last(): FakeXhr {
    const xhr = FakeXhr.instances.at(-1);
    if (xhr === undefined) throw new Error('no XMLHttpRequest was made');
    return xhr;
  }

  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown;
  timeout = 0;
  status = 0;
  statusText = '';
  responseText = '';
  aborted = false;
  upload: { onprogress: Handler } = { onprogress: null };
  onload: Handler = null;
  onerror: Handler = null;
  ontimeout: Handler = null;
  onabort: Handler = null;

  constructor() {
    FakeXhr.instances.push(this);
  }

  open(method: string, url: string): void {
    this.method = method;
    this.url = url;
  }

  setRequestHeader(name: string, value: string): void {
    this.headers[name] = value;
  }

  send(body: unknown): void {
    this.body = body;
  }

  abort(): void {
    this.aborted = true;
    this.onabort?.(new ProgressEvent('abort'));
  }

  sendProgress(loaded: number, total: number): void {
    this.upload.onprogress?.(new ProgressEvent('progress', { lengthComputable: true, loaded, total }));
  }

  /** Answers with `status`; an object goes as JSON, a string as is. */
  respond(status: number, body: unknown): void {
    this.status = status;
    this.responseText = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
    this.onload?.(new ProgressEvent('load'));
  }

  fail(kind: 'error' | 'timeout'): void {
    (kind === 'error' ? this.onerror : this.ontimeout)?.(new ProgressEvent(kind));
  }
}
