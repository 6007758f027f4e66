import { setI18n } from 'react-i18next';
import { ensureI18n } from '../lib/i18n';

// jsdom implements no scrolling; the app calls scrollTo on every route change.
window.scrollTo = () => {};

// In the app, react-i18next is wired up when the back office loads (lib/messages.ts); component
// tests render back-office parts on their own, so they get the same wiring up front.
setI18n(ensureI18n());

// antd injects its CSS-in-JS as <style> tags in <head>; jsdom then runs the whole cascade for
// every getComputedStyle call, which user-event makes on each click to check pointer-events.
// Those rules decide nothing jsdom can show, so they go to a detached container instead.
const detachedStyles = document.createElement('div');
const isAntdStyle = (node: Node): boolean =>
  node instanceof HTMLStyleElement && (node.hasAttribute('data-rc-order') || node.hasAttribute('data-css-hash') || node.hasAttribute('data-token-hash'));
const appendChild = HTMLHeadElement.prototype.appendChild;
const insertBefore = HTMLHeadElement.prototype.insertBefore;
HTMLHeadElement.prototype.appendChild = function <T extends Node>(this: HTMLHeadElement, node: T): T {
  return isAntdStyle(node) ? detachedStyles.appendChild(node) : appendChild.call(this, node) as T;
};
HTMLHeadElement.prototype.insertBefore = function <T extends Node>(this: HTMLHeadElement, node: T, child: Node | null): T {
  return isAntdStyle(node) ? detachedStyles.appendChild(node) : insertBefore.call(this, node, child) as T;
};
const removeChild = HTMLHeadElement.prototype.removeChild;
HTMLHeadElement.prototype.removeChild = function <T extends Node>(this: HTMLHeadElement, node: T): T {
  return node.parentNode === detachedStyles ? detachedStyles.removeChild(node) : removeChild.call(this, node) as T;
};

// The shells open `/websocket` for the notification bell; jsdom's WebSocket would dial
// localhost for real from every test that renders one. This one never connects; a test that
// pushes messages stubs its own (vi.stubGlobal).
class UnconnectedSocket extends EventTarget {
  constructor(readonly url: string) {
    super();
  }
  send(): void {}
  close(): void {}
}
window.WebSocket = UnconnectedSocket as unknown as typeof WebSocket;
