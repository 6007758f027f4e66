import {
  SOCKET_CLOSE_BUSY,
  SOCKET_CLOSE_REPLACED,
  SOCKET_CLOSE_TOO_MANY,
  SOCKET_CLOSE_UNAUTHORIZED,
  type SessionEndedMessage,
} from '@cloud-classroom/shared/auth';
import type { SocketLimits } from '../../config.js';

/** What the hub needs of a socket (the `ws` package's WebSocket has it). */
export type PushSocket = {
  send(data: string): void;
  close(code: number, reason: string): void;
  ping(): void;
  /** Drops the connection at once, without the close handshake a silent peer would never finish. */
  terminate(): void;
  on(event: 'pong', listener: () => void): unknown;
  once(event: 'close', listener: () => void): unknown;
};

/**
 * The open sockets of this process by session and by person: a session ended anywhere in this
 * process (kicked out, logged out, password changed) is told at once and disconnected, and what
 * a person is told (notifications) reaches every socket they hold here. Sessions ended and
 * notifications written by another process reach this one through PostgreSQL's LISTEN/NOTIFY
 * (`SessionService`, `NotificationPush`).
 *
 * Each socket holds a file descriptor, and one token once held 20,000 of them until the process
 * could open no file and stopped answering anyone. So a session keeps at most `perSession`, a
 * person `perUser` and the process `total` (refused ones and ones closing included, until their
 * connection is gone), and a socket that does not answer a ping by the next one is cut off.
 */
export class SessionSockets {
  private readonly bySession = new Map<string, Set<PushSocket>>();
  private readonly byUser = new Map<number, Set<PushSocket>>();
  /** Every socket from its upgrade to its end, with whether it has answered since the last ping. */
  private readonly held = new Map<PushSocket, boolean>();
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(private readonly limits: SocketLimits) {}

  /**
   * Takes a socket of a live session. Past the session's cap the session's OLDEST socket gives
   * way rather than the new one: a learner who opens one tab too many keeps live notifications in
   * the tab they are looking at, and the tab given up reconnects only when shown again (the web
   * client), so tabs do not take turns evicting each other. That cannot be turned against anyone
   * else: only the holder of the session's token can open its sockets, so a flood on it evicts
   * only its own, each new socket costs it a handshake and a session lookup while the server
   * still holds at most `perSession`. Past the person's or the process's cap the new socket is
   * refused instead: there evicting would let one session (a leaked token, a runaway script) push
   * out the person's other devices, or anyone push out everyone.
   */
  /** Sockets this process holds now, refused and closing ones until their connection is gone. */
  get openCount(): number {
    return this.held.size;
  }

  add(sessionId: string, userId: number, socket: PushSocket): void {
    if (this.held.size >= this.limits.total) return this.refuse(socket, SOCKET_CLOSE_BUSY, 'the server holds all the sockets it can');
    const ofSession = this.bySession.get(sessionId);
    if (ofSession !== undefined && ofSession.size >= this.limits.perSession) {
      const [oldest] = ofSession;
      if (oldest !== undefined) {
        this.unindex(sessionId, userId, oldest);
        oldest.close(SOCKET_CLOSE_REPLACED, 'replaced by a newer socket of the session');
      }
    } else if ((this.byUser.get(userId)?.size ?? 0) >= this.limits.perUser) {
      return this.refuse(socket, SOCKET_CLOSE_TOO_MANY, 'too many sockets for this person');
    }
    this.hold(socket);
    addTo(this.bySession, sessionId, socket);
    addTo(this.byUser, userId, socket);
    socket.once('close', () => this.unindex(sessionId, userId, socket));
  }

  /** Closes a socket it does not take, holding it until its connection is gone like any other. */
  refuse(socket: PushSocket, code: number, reason: string): void {
    this.hold(socket);
    socket.close(code, reason);
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

  private unindex(sessionId: string, userId: number, socket: PushSocket): void {
    removeFrom(this.bySession, sessionId, socket);
    removeFrom(this.byUser, userId, socket);
  }

  private hold(socket: PushSocket): void {
    this.held.set(socket, true);
    socket.on('pong', () => {
      if (this.held.has(socket)) this.held.set(socket, true);
    });
    socket.once('close', () => {
      this.held.delete(socket);
      if (this.held.size === 0) {
        clearInterval(this.heartbeat);
        this.heartbeat = undefined;
      }
    });
    // Judged after the loop's I/O (setImmediate): a pong that came while the process was busy
    // counts, so a stall of the server's own does not cut off clients that did answer.
    this.heartbeat ??= setInterval(() => setImmediate(() => this.beat()), this.limits.heartbeatMs).unref();
  }

  /** Cuts off what has not answered the last ping (a closing socket never does), pings the rest. */
  private beat(): void {
    for (const [socket, answered] of this.held) {
      if (!answered) {
        socket.terminate();
        continue;
      }
      this.held.set(socket, false);
      socket.ping();
    }
  }
}

function addTo<K>(index: Map<K, Set<PushSocket>>, key: K, socket: PushSocket): void {
  const sockets = index.get(key) ?? new Set<PushSocket>();
  sockets.add(socket);
  index.set(key, sockets);
}

function removeFrom<K>(index: Map<K, Set<PushSocket>>, key: K, socket: PushSocket): void {
  const sockets = index.get(key);
  if (sockets === undefined) return;
  sockets.delete(socket);
  if (sockets.size === 0) index.delete(key);
}
