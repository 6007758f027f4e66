/** Test helpers of the system pages (menus, depts, dicts) on top of the list-page test kit (tests only). */
import { configure, fireEvent, screen, within } from '@testing-library/react';
import { jsonResponse, stubApi, type ApiCall } from '../components/list-page/list-page-test-kit';
import { useUserStore } from '../features/auth/user-store';

// antd's async validation and animations outlast the default 1 s on a busy machine.
configure({ asyncUtilTimeout: 5000 });

/**
 * A fake API answering by `METHOD path` (`'GET api/menus/lazy'`); anything else is a 404.
 * `callsTo(route)` lists the calls made to one route.
 */
export function stubRoutes(routes: Record<string, (call: ApiCall) => unknown>) {
  const calls = stubApi((call) => {
    const handler = routes[`${call.method} ${call.path}`];
    return handler === undefined
      ? jsonResponse(404, { status: 404, message: `no stub for ${call.method} ${call.path}`, timestamp: 0 })
      : handler(call);
  });
  return { calls, callsTo: (route: string) => calls.filter((call) => `${call.method} ${call.path}` === route) };
}

export function signInAs(roles: string[]) {
  useUserStore.setState({ roles });
}

/** Sets a text field's value in one change event (typing key by key re-renders antd forms per key: slow). */
export function fill(input: HTMLElement, value: string) {
  fireEvent.change(input, { target: { value } });
}

/** Clicks the button, link or label showing exactly `text` (antd puts button text in a span). */
export function clickText(text: string, container?: HTMLElement) {
  const scope = container === undefined ? screen : within(container);
  const target = scope.getByText(text);
  fireEvent.click(target.closest('button, label, a') ?? target);
}

export const AUDIT = { createBy: 'admin', updateBy: 'admin', createTime: '2025-01-02 10:00:00', updateTime: '2025-01-02 10:00:00' };
