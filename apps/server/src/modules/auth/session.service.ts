import crypto, { type KeyObject } from 'node:crypto';
import type { SignJWT } from 'jose/jwt/sign';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import { getOrCreateSetting } from '../../db/app-setting.repo.js';
import type { AppDatabase, Listening } from '../../db/database.js';
import { channelOf, pgNotify } from '../../db/pg-notify.js';
import type { Database } from '../../db/schema.js';
import {
  deleteExpiredSessions,
  deleteSessions,
  deleteSessionsOfUsers,
  findLiveSession,
  insertSession,
  touchSession,
} from './session.repo.js';
import { verifySessionToken, type SessionTokenClaims } from './session-token.js';

/** An idle session ends after this long; every request moves the end further out. */
export const SESSION_IDLE_MS = 4 * 60 * 60 * 1000;
/** Extending the expiry on every request would write on every request; once a minute is enough. */
const TOUCH_INTERVAL_MS = 60 * 1000;
/** Tokens outlive no session, but a leaked token must still stop being a token some day. */
const TOKEN_LIFETIME_S = 30 * 24 * 60 * 60;
const BEARER = 'Bearer ';
/** Tokens whose signature was checked; the session row is still read on every request. */
const CHECKED_TOKEN_CACHE_SIZE = 20_000;

// jose (some fifty modules) is loaded on the first sign-in rather than at start, and only its
// signing: tokens are checked by `verifySessionToken`.
let signJwt: Promise<typeof SignJWT> | undefined;
const loadSignJwt = async (): Promise<typeof SignJWT> => (await import('jose/jwt/sign')).SignJWT;

export type Principal = { sessionId: string; userId: number; username: string; isAdmin: boolean };

export type SessionsEnded = { sessionIds: string[]; reason: string };
export type SessionsEndedListener = (ended: SessionsEnded) => void;

// A NOTIFY payload holds under 8000 bytes; a session id takes 35 in it.
const SESSIONS_PER_NOTIFY = 150;

/**
 * Sessions: started at sign-in, checked on every request, ended by a logout, a kick-out, a password
 * change or a disabled account. Their rows live in the database, so every process honours an end
 * at once; the processes' open sockets hear of it too: on PostgreSQL each process tells the others
 * by NOTIFY on a channel of its schema and LISTENs there (`listenToOtherProcesses`).
 */
export class SessionService {
  private readonly listeners = new Set<SessionsEndedListener>();
  /** Tells this process's NOTIFYs from the others', as the sender hears its own too. */
  private readonly origin = crypto.randomUUID();
  private readonly channel: string;
  private listening: Listening | undefined;
  // Checking a token (decoding, an HMAC, parsing) is a tenth of a light request's CPU; revocation
  // lives in the session row, so remembering a checked token weakens nothing.
  private readonly checkedTokens = new Map<string, SessionTokenClaims>();

  private constructor(
    private readonly database: AppDatabase,
    private readonly secret: KeyObject,
    private readonly clock: Clock,
  ) {
    this.channel = channelOf('sessions', database.schema);
  }

  private get db(): Kysely<Database> {
    return this.database.db;
  }

  /** The signing secret is generated on first start and kept in the database, shared by every process. */
  static async create(database: AppDatabase, clock: Clock): Promise<SessionService> {
    const secret = await getOrCreateSetting(database.db, 'jwt_secret', () => crypto.randomBytes(64).toString('base64url'));
    // A KeyObject made once: handing jose raw bytes makes it import the key on every signing.
    return new SessionService(database, crypto.createSecretKey(Buffer.from(secret)), clock);
  }

  /** Starts hearing the sessions other processes end (PostgreSQL); app start. */
  async listenToOtherProcesses(): Promise<void> {
    const { listen } = this.database;
    if (listen === undefined || this.listening !== undefined) return;
    this.listening = await listen(this.channel, (payload) => {
      const { origin, ...ended } = JSON.parse(payload) as SessionsEnded & { origin: string };
      if (origin !== this.origin) this.tellListeners(ended);
    });
  }

  async close(): Promise<void> {
    await this.listening?.close();
    this.listening = undefined;
  }

  async start(userId: number, ip: string, browser: string): Promise<{ token: string; sessionId: string }> {
    const now = this.clock.now();
    const sessionId = crypto.randomBytes(24).toString('base64url');
    await insertSession(this.db, { id: sessionId, userId, ip, browser, now, expiresAt: now + SESSION_IDLE_MS });
    const SignJWT = await (signJwt ??= loadSignJwt());
    const jwt = await new SignJWT({ sid: sessionId })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt(Math.floor(now / 1000))
      .setExpirationTime(Math.floor(now / 1000) + TOKEN_LIFETIME_S)
      .sign(this.secret);
    // Opportunistic clean-up: logins are rare enough to carry it.
    await deleteExpiredSessions(this.db, now);
    return { token: `${BEARER}${jwt}`, sessionId };
  }

  /** The session an Authorization header names, if it is still alive; extends it (sliding expiry). */
  async authenticate(authorization: string | undefined): Promise<Principal | undefined> {
    const sessionId = this.sessionIdOf(authorization);
    if (sessionId === undefined) return undefined;
    const session = await findLiveSession(this.db, sessionId);
    const now = this.clock.now();
    if (session === undefined || session.expiresAt <= now) return undefined;
    if (now - session.lastSeenAt >= TOUCH_INTERVAL_MS) await touchSession(this.db, sessionId, now, now + SESSION_IDLE_MS);
    return { sessionId, userId: session.userId, username: session.username, isAdmin: session.isAdmin };
  }

  sessionIdOf(authorization: string | undefined): string | undefined {
    if (authorization === undefined || !authorization.startsWith(BEARER)) return undefined;
    const token = authorization.slice(BEARER.length).trim();
    const now = this.clock.now();
    let claims = this.checkedTokens.get(token);
    if (claims === undefined) {
      claims = verifySessionToken(token, this.secret, now);
      if (claims === undefined) return undefined;
      if (this.checkedTokens.size >= CHECKED_TOKEN_CACHE_SIZE) this.checkedTokens.delete(this.checkedTokens.keys().next().value as string);
      this.checkedTokens.set(token, claims);
    }
    return claims.expiresAt > now ? claims.sessionId : undefined;
  }

  async end(sessionIds: readonly string[], reason: string): Promise<void> {
    const userIds = await deleteSessions(this.db, sessionIds);
    if (userIds.length > 0) await this.announce({ sessionIds: [...sessionIds], reason });
  }

  /** Ends every session of these users, except optionally the one making the change. */
  async endAllOf(userIds: readonly number[], reason: string, exceptSessionId?: string): Promise<void> {
    const sessionIds = await deleteSessionsOfUsers(this.db, userIds, exceptSessionId);
    if (sessionIds.length > 0) await this.announce({ sessionIds, reason });
  }

  onSessionsEnded(listener: SessionsEndedListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** This process's listeners at once; the other processes' by NOTIFY. */
  private async announce(ended: SessionsEnded): Promise<void> {
    this.tellListeners(ended);
    if (this.database.dialect !== 'postgres') return;
    for (let start = 0; start < ended.sessionIds.length; start += SESSIONS_PER_NOTIFY) {
      const sessionIds = ended.sessionIds.slice(start, start + SESSIONS_PER_NOTIFY);
      await pgNotify(this.db, this.channel, JSON.stringify({ origin: this.origin, sessionIds, reason: ended.reason }));
    }
  }

  private tellListeners(ended: SessionsEnded): void {
    for (const listener of this.listeners) listener(ended);
  }
}
