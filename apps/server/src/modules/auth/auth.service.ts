import type { AuthInfo, LoginResponse } from '@cloud-classroom/shared/auth';
import { translate } from '@cloud-classroom/shared/messages';
import { hash, verify } from '@node-rs/argon2';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { HttpError } from '../../http/http-error.js';
import { dataScopesOf, findLoginCandidate, findUserDto, permissionsOf } from '../users/users.repo.js';
import { checkCaptcha } from './captcha.service.js';
import { clearFailures, countAttempt, recordFailure, usernameThrottleKey } from './login-throttle.repo.js';
import type { SessionService } from './session.service.js';

export const LOGIN_WINDOW_MS = 60 * 1000;
export const MAX_ATTEMPTS_PER_IP = 30;
export const MAX_ATTEMPTS_PER_USERNAME = 10;
export const LOCK_AFTER_FAILURES = 5;
export const LOCK_MS = 10 * 60 * 1000;

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

export type AuthServiceOptions = { db: Kysely<Database>; sessions: SessionService; captchaEnabled: boolean };

export class AuthService {
  constructor(private readonly options: AuthServiceOptions) {}

  async login(request: LoginRequest): Promise<LoginResponse> {
    const { db, sessions, captchaEnabled } = this.options;
    const now = Date.now();
    void hashForMissingUser();
    const userKey = usernameThrottleKey(request.username);
    const [byIp, byUser] = [
      await countAttempt(db, `ip:${request.ip}`, now, LOGIN_WINDOW_MS),
      await countAttempt(db, userKey, now, LOGIN_WINDOW_MS),
    ];
    if (byUser.lockedUntil !== null && byUser.lockedUntil > now) {
      const minutes = Math.ceil((byUser.lockedUntil - now) / 60_000);
      throw new HttpError(429, `too many failed logins for this account; try again in ${minutes} minute${minutes === 1 ? '' : 's'}`);
    }
    if (byIp.attempts > MAX_ATTEMPTS_PER_IP || byUser.attempts > MAX_ATTEMPTS_PER_USERNAME) {
      throw new HttpError(429, 'too many login attempts; wait a minute and try again');
    }
    if (captchaEnabled) {
      const captcha = await checkCaptcha(db, request.uuid, request.code);
      if (captcha === 'missing') throw new HttpError(400, `code: ${translate('en-US', 'login.codeExpired')}`);
      if (captcha === 'wrong') throw new HttpError(400, `code: ${translate('en-US', 'login.codeWrong')}`);
    }

    const candidate = await findLoginCandidate(db, request.username);
    const passwordMatches = await verify(candidate?.passwordHash ?? (await hashForMissingUser()), request.password);
    if (candidate === undefined || !passwordMatches) {
      const state = await recordFailure(db, userKey, LOCK_AFTER_FAILURES, now + LOCK_MS);
      if (state.lockedUntil !== null && state.lockedUntil > now) {
        throw new HttpError(429, `too many failed logins for this account; try again in ${Math.ceil(LOCK_MS / 60_000)} minutes`);
      }
      // The same words whether the user exists or not.
      throw new HttpError(400, translate('en-US', 'login.badCredentials'));
    }
    if (!candidate.enabled) throw new HttpError(400, translate('en-US', 'login.accountDisabled'));
    await clearFailures(db, userKey);

    const { token } = await sessions.start(candidate.id, request.ip, request.browser);
    return { token, user: await this.info(candidate.id) };
  }

  async info(userId: number): Promise<AuthInfo> {
    const { db } = this.options;
    const [user, roles, dataScopes] = await Promise.all([
      findUserDto(db, userId),
      permissionsOf(db, userId),
      dataScopesOf(db, userId),
    ]);
    if (user === undefined) throw new HttpError(401, 'the account no longer exists');
    return { user, roles, dataScopes };
  }
}
