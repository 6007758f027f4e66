import { NOTIFICATION_DURATION_MS } from '@cloud-classroom/shared/constants';

/**
 * A few lines of DOM instead of antd's notification, for the pages that must stay small (login,
 * learner pages). The back office replaces it with antd's notification (see admin-layout).
 */
export function showToast(message: string, kind: 'error' | 'success' | 'warning' = 'error'): void {
  let stack = document.getElementById('cc-toasts');
  if (stack === null) {
    stack = document.createElement('div');
    stack.id = 'cc-toasts';
    stack.className = 'cc-toasts';
    document.body.append(stack);
  }
  const toast = document.createElement('div');
  toast.className = `cc-toast cc-toast-${kind}`;
  toast.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  toast.textContent = message;
  stack.append(toast);
  setTimeout(() => toast.remove(), NOTIFICATION_DURATION_MS);
}
