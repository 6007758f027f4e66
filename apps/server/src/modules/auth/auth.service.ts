import type { AuthInfo, LoginResponse } from '@cloud-classroom/shared/auth';
import type { User } from '@cloud-classroom/shared/users';
import { translate } from '@cloud-classroom/shared/messages';
import { hash, verify } from '@node-rs/argon2';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { invalidInput, rateLimited, unauthenticated } from '../../domain-error.js';
import type { AccessService } from '../access/access.service.js';
import { checkCaptcha } from './captcha.service.js';
import { loginAccount, loginThrottle, type FailureThrottle } from './failure-throttle.js';
import { countAttempt, holdUntil, lockedUntil } from './login-throttle.repo.js';
import type { SessionService } from './session.service.js';

export const LOGIN_WINDOW_MS = 60 * 1000;
/**
 * Failed logins (a wrong password, or a wrong or missing captcha) from one address in a minute,
 * whichever accounts they name, after which that address may not try again until the minute is
 * over. Successful sign-ins never count: an office of hundreds behind one NAT or proxy signs in
 * together at 9:00, while one address spraying guesses at many accounts is held to this many.
 */
export const MAX_FAILURES_PER_ADDRESS = 30;
const addressKey = (address: string): string => `login-failures:${address}`;

// Compared against when the username does not exist, so that answer takes as long as a wrong
// password. Made on the first login rather than at start, which it held up; it is under way
// while that login's other queries run.
let missingUserHash: Promise<string> | undefined;
const hashForMissingUser = (): Promise<string> => (missingUserHash ??= hash('no such user, no such password'));

export type LoginRequest = {
  username: string;
  password: string;
  code: string;
  uuid: string;
  ip: string;
  browser: string;
};

/** What signing in needs of the users module: its service (typed here, as that service depends on this module). */
export type SignInUsers = {
  loginCandidate(username: string): Promise<{ id: number; passwordHash: string; enabled: boolean } | undefined>;
  get(id: number): Promise<User | undefined>;
};

export type AuthServiceOptions = {
  db: Kysely<Database>;
  sessions: SessionService;
  users: SignInUsers;
  access: AccessService;
  captchaEnabled: boolean;
  clock: Clock;
  /** Told of each successful login, after its session started (the census keeps a row per login). */
  onLogin?: (userId: number, client: { ip: string; browser: string }) => Promise<void>;
};

export class AuthService {
  private readonly throttle: FailureThrottle;

  constructor(private readonly options: AuthServiceOptions) {
    this.throttle = loginThrottle(options.db);
  }

  async login(request: LoginRequest): Promise<LoginResponse> {
    const { db, sessions, captchaEnabled, clock } = this.options;
    const now = clock.now();
    void hashForMissingUser();
    const account = loginAccount(request.username);
    const addressHeld = await lockedUntil(db, addressKey(request.ip));
    if (addressHeld !== null && addressHeld > now) throw rateLimited('too many failed logins from this address; wait a minute and try again');
    await this.throttle.check(account, request.ip, now);
    if (captchaEnabled) {
      const captcha = await checkCaptcha(db, request.uuid, request.code, now);
      if (captcha !== 'ok') await this.failedFromAddress(request.ip, now);
      if (captcha === 'missing') throw invalidInput(`code: ${translate('en-US', 'login.codeExpired')}`);
      if (captcha === 'wrong') throw invalidInput(`code: ${translate('en-US', 'login.codeWrong')}`);
    }

    const candidate = await this.options.users.loginCandidate(request.username);
    const passwordMatches = await verify(candidate?.passwordHash ?? (await hashForMissingUser()), request.password);
    if (candidate === undefined || !passwordMatches) {
      await this.failedFromAddress(request.ip, now);
      await this.throttle.failed(account, request.ip, now);
      // The same words whether the user exists or not.
      throw invalidInput(translate('en-US', 'login.badCredentials'));
    }
    if (!candidate.enabled) throw invalidInput(translate('en-US', 'login.accountDisabled'));
    await this.throttle.succeeded(account, request.ip);

    const { token } = await sessions.start(candidate.id, request.ip, request.browser);
    await this.options.onLogin?.(candidate.id, { ip: request.ip, browser: request.browser });
    return { token, user: await this.info(candidate.id) };
  }

  /** Counts a failed login against its address; the one that reaches the limit holds the address for a window. */
  private async failedFromAddress(address: string, now: number): Promise<void> {
    const { db } = this.options;
    const failures = await countAttempt(db, addressKey(address), now, LOGIN_WINDOW_MS);
    if (failures.attempts >= MAX_FAILURES_PER_ADDRESS) await holdUntil(db, addressKey(address), now + LOGIN_WINDOW_MS);
  }

  async info(userId: number): Promise<AuthInfo> {
    const { users, access } = this.options;
    const [user, roles, dataScopes] = await Promise.all([users.get(userId), access.permissionsOf(userId), access.dataScopeOf(userId)]);
    if (user === undefined) throw unauthenticated('the account no longer exists');
    return { user, roles, dataScopes };
  }
}
