/** Test helpers for pages built on the list pattern (tests only; never imported by app code). */
import { messages } from '@cloud-classroom/shared/messages';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { App } from 'antd';
import i18next from 'i18next';
import type { ReactNode } from 'react';
import { initReactI18next } from 'react-i18next';
import { vi } from 'vitest';

/**
 * Feature modules register their strings when imported, which needs a started i18next: call this
 * from `await vi.hoisted(async () => …)` (import this module dynamically there) before the imports run.
 */
export async function initTestI18n(locale: 'en-US' | 'zh-CN' = 'en-US'): Promise<void> {
  if (i18next.isInitialized) {
    await i18next.changeLanguage(locale);
    return;
  }
  await i18next.use(initReactI18next).init({
    lng: locale,
    fallbackLng: 'zh-CN',
    resources: { 'zh-CN': { translation: messages['zh-CN'] }, 'en-US': { translation: messages['en-US'] } },
    keySeparator: false,
    interpolation: { escapeValue: false },
  });
}

class NoResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}

/**
 * antd reads matchMedia (responsive parts) and ResizeObserver (tables, overflow), which jsdom lacks;
 * `width` decides which breakpoints match. Undo with `vi.unstubAllGlobals()`.
 */
export function stubBrowser(width = 1280): void {
  vi.stubGlobal('ResizeObserver', NoResizeObserver);
  const computedStyle = window.getComputedStyle.bind(window);
  // jsdom implements no pseudo-elements and logs an error for each scrollbar measurement.
  vi.stubGlobal('getComputedStyle', (element: Element) => computedStyle(element));
  vi.stubGlobal('matchMedia', (query: string) => {
    const min = /min-width:\s*(\d+)px/.exec(query);
    const max = /max-width:\s*(\d+(?:\.\d+)?)px/.exec(query);
    const matches = (!min || width >= Number(min[1])) && (!max || width <= Number(max[1]));
    return {
      matches,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    };
  });
}

export type ApiCall = { method: string; path: string; params: URLSearchParams; body: unknown; headers: Headers };

/**
 * Stubs fetch with `answer(call)`: a returned value is sent as JSON with status 200 (undefined: an
 * empty 200), a Response as is. Returns the list of calls, appended as they happen.
 */
export function stubApi(answer: (call: ApiCall) => unknown): ApiCall[] {
  const calls: ApiCall[] = [];
  vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://localhost');
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : init.body;
    const call = { method: init.method ?? 'GET', path: url.pathname.replace(/^\//, ''), params: url.searchParams, body, headers: new Headers(init.headers) };
    calls.push(call);
    const result = await answer(call);
    if (result instanceof Response) return result;
    return new Response(result === undefined ? '' : JSON.stringify(result), {
      status: 200,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  return calls;
}

export function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

export function renderWithProviders(ui: ReactNode) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return {
    queryClient,
    ...render(
      <QueryClientProvider client={queryClient}>
        <App>{ui}</App>
      </QueryClientProvider>,
    ),
  };
}
