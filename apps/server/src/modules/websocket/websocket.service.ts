import { SOCKET_CLOSE_UNAUTHORIZED, type SessionEndedMessage } from '@cloud-classroom/shared/auth';

/** What the hub needs of a socket (the `ws` package's WebSocket has it). */
export type PushSocket = {
  send(data: string): void;
  close(code: number, reason: string): void;
  once(event: 'close', listener: () => void): unknown;
};

/**
 * The open sockets of this process by session and by person: a session ended anywhere in this
 * process (kicked out, logged out, password changed) is told at once and disconnected, and what
 * a person is told (notifications) reaches every socket they hold here. The ends of sessions are
 * in-process only (with several server processes they must reach the others through PostgreSQL
 * LISTEN/NOTIFY or Redis, not built for them); notifications reach the others by the
 * notifications module's own LISTEN.
 */
export class SessionSockets {
  private readonly bySession = new Map<string, Set<PushSocket>>();
  private readonly byUser = new Map<number, Set<PushSocket>>();

  add(sessionId: string, userId: number, socket: PushSocket): void {
    const ofSession = addTo(this.bySession, sessionId, socket);
    const ofUser = addTo(this.byUser, userId, socket);
    socket.once('close', () => {
      removeFrom(this.bySession, sessionId, ofSession, socket);
      removeFrom(this.byUser, userId, ofUser, socket);
    });
  }

  /** Whether the person holds a socket in this process (a push for no one reads nothing). */
  holds(userId: number): boolean {
    return this.byUser.has(userId);
  }

  /** Sends the message to each socket the person holds in this process; answers how many. */
  sendToUser(userId: number, message: unknown): number {
    const sockets = this.byUser.get(userId);
    if (sockets === undefined) return 0;
    const text = JSON.stringify(message);
    for (const socket of sockets) socket.send(text);
    return sockets.size;
  }

  endSessions(sessionIds: readonly string[], reason: string): void {
    const message: SessionEndedMessage = { type: 'session-ended', reason };
    for (const sessionId of sessionIds) {
      const sockets = this.bySession.get(sessionId);
      if (sockets === undefined) continue;
      this.bySession.delete(sessionId);
      for (const socket of sockets) {
        socket.send(JSON.stringify(message));
        socket.close(SOCKET_CLOSE_UNAUTHORIZED, 'session ended');
      }
    }
  }
}

function addTo<K>(index: Map<K, Set<PushSocket>>, key: K, socket: PushSocket): Set<PushSocket> {
  const sockets = index.get(key) ?? new Set<PushSocket>();
  sockets.add(socket);
  index.set(key, sockets);
  return sockets;
}

function removeFrom<K>(index: Map<K, Set<PushSocket>>, key: K, sockets: Set<PushSocket>, socket: PushSocket): void {
  sockets.delete(socket);
  if (sockets.size === 0 && index.get(key) === sockets) index.delete(key);
}
