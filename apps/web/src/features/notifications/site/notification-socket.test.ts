import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubRoutes } from '../../../test/page-test-kit';
import { connectNotifications } from './notification-store';

/** A stand-in for the browser's WebSocket: the test closes it as the server would. */
class FakeSocket extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 3;
  static opened: FakeSocket[] = [];
  readyState = FakeSocket.OPEN;
  closeCalls = 0;
  constructor(readonly url: string) {
    super();
    FakeSocket.opened.push(this);
  }
  serverCloses(code: number) {
    this.readyState = FakeSocket.CLOSED;
    this.dispatchEvent(new CloseEvent('close', { code }));
  }
  /** A browser logs a warning when a socket is closed before it is open: the test counts those calls. */
  close() {
    this.closeCalls += 1;
    this.readyState = FakeSocket.CLOSED;
    this.dispatchEvent(new CloseEvent('close', { code: 1000 }));
  }
}

let visibility: DocumentVisibilityState = 'visible';
function show(state: DocumentVisibilityState) {
  visibility = state;
  document.dispatchEvent(new Event('visibilitychange'));
}

describe('the notification socket', () => {
  let disconnect: () => void;
  beforeEach(() => {
    vi.useFakeTimers();
    FakeSocket.opened = [];
    vi.stubGlobal('WebSocket', FakeSocket);
    vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
    visibility = 'visible';
    stubRoutes({ 'GET api/site/notifications': () => ({ content: [], totalElements: 0, unreadCount: 0 }) });
    disconnect = connectNotifications('t');
  });
  afterEach(() => {
    disconnect();
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  const latest = () => FakeSocket.opened.at(-1)!;

  it('closes a socket left while still connecting only once it is open, so the browser logs nothing', () => {
    const connecting = latest();
    connecting.readyState = FakeSocket.CONNECTING;
    disconnect();
    expect(connecting.closeCalls).toBe(0);
    connecting.readyState = FakeSocket.OPEN;
    connecting.dispatchEvent(new Event('open'));
    expect(connecting.closeCalls).toBe(1);
    expect(FakeSocket.opened).toHaveLength(1);
  });

  it('reopens a lost connection after a growing pause', () => {
    latest().serverCloses(1006);
    vi.advanceTimersByTime(999);
    expect(FakeSocket.opened).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.opened).toHaveLength(2);
    latest().serverCloses(1006);
    vi.advanceTimersByTime(1999);
    expect(FakeSocket.opened).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.opened).toHaveLength(3);
  });

  it('waits at least half a minute when refused for too many sockets, or a busy server', () => {
    for (const code of [1008, 1013]) {
      const before = FakeSocket.opened.length;
      latest().serverCloses(code);
      vi.advanceTimersByTime(29_999);
      expect(FakeSocket.opened).toHaveLength(before);
      vi.advanceTimersByTime(30_001);
      expect(FakeSocket.opened).toHaveLength(before + 1);
    }
  });

  it('reopens a socket a newer tab replaced only once its tab is shown again', () => {
    show('hidden');
    latest().serverCloses(4409);
    vi.advanceTimersByTime(10 * 60_000);
    expect(FakeSocket.opened).toHaveLength(1);
    show('visible');
    expect(FakeSocket.opened).toHaveLength(2);
    // Shown again later, it opens no second one.
    show('hidden');
    show('visible');
    expect(FakeSocket.opened).toHaveLength(2);
  });

  it('stops when the session has ended', () => {
    latest().serverCloses(4401);
    vi.advanceTimersByTime(10 * 60_000);
    show('hidden');
    show('visible');
    expect(FakeSocket.opened).toHaveLength(1);
  });
});
