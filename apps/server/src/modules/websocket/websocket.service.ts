import { SOCKET_CLOSE_UNAUTHORIZED, type SessionEndedMessage } from '@cloud-classroom/shared/auth';

/** What the hub needs of a socket (the `ws` package's WebSocket has it). */
export type PushSocket = {
  send(data: string): void;
  close(code: number, reason: string): void;
  once(event: 'close', listener: () => void): unknown;
};

/**
 * The open sockets of each session, so that a session ended anywhere in this process (kicked
 * out, logged out, password changed) is told at once and disconnected. In-process only: with
 * several server processes, the end must reach the others through PostgreSQL LISTEN/NOTIFY or
 * Redis, which is not built.
 */
export class SessionSockets {
  private readonly bySession = new Map<string, Set<PushSocket>>();

  add(sessionId: string, socket: PushSocket): void {
    const sockets = this.bySession.get(sessionId) ?? new Set<PushSocket>();
    sockets.add(socket);
    this.bySession.set(sessionId, sockets);
    socket.once('close', () => {
      sockets.delete(socket);
      if (sockets.size === 0 && this.bySession.get(sessionId) === sockets) this.bySession.delete(sessionId);
    });
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
