import crypto from 'node:crypto';
import {
  usernameSchema,
  type ResetPassword,
  type UpdatePassword,
  type User,
  type UserCenter,
  type UserCreate,
  type UserFilter,
  type UserQuery,
  type UserUpdate,
} from '@cloud-classroom/shared/users';
import { hash, verify } from '@node-rs/argon2';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { HttpError } from '../../http/http-error.js';
import { loginAccount, loginThrottle } from '../auth/failure-throttle.js';
import { PasswordChangeThrottle } from '../auth/password-change-throttle.js';
import type { Principal, SessionService } from '../auth/session.service.js';
import { findRoleSummaries } from '../roles/roles.repo.js';
import { imageKindOf, removeAvatar, saveAvatar } from './avatar-files.js';
import {
  bestLevelOf,
  dataScopesOf,
  deleteUsers,
  deptExists,
  findLoginCandidate,
  findPasswordHash,
  findUserDtos,
  findUserIds,
  findUserRefs,
  insertUser,
  isTaken,
  setPasswordHashes,
  updateUser,
  withDescendants,
  type UserListFilter,
  type UserRef,
} from './users.repo.js';
import { changed, created } from '../../db/audit-columns.js';

export type UserServiceOptions = { db: Kysely<Database>; sessions: SessionService; dataDir: string };

/** 96 random bits, typeable: what a new or reset account gets when nobody chose a password. */
const generatePassword = () => crypto.randomBytes(12).toString('base64url');

export class UserService {
  private readonly passwordChanges: PasswordChangeThrottle;

  constructor(private readonly options: UserServiceOptions) {
    this.passwordChanges = new PasswordChangeThrottle(options.db);
  }

  async page(caller: Principal, query: UserQuery): Promise<{ content: User[]; totalElements: number }> {
    const filter = await this.repoFilter(caller, query);
    if (filter === undefined) return { content: [], totalElements: 0 };
    const { ids, total } = await findUserIds(this.options.db, filter, { offset: query.page * query.size, limit: query.size });
    return { content: await findUserDtos(this.options.db, ids), totalElements: total };
  }

  /** Every matching user, for the export. */
  async all(caller: Principal, query: UserFilter): Promise<User[]> {
    const filter = await this.repoFilter(caller, query);
    if (filter === undefined) return [];
    return findUserDtos(this.options.db, (await findUserIds(this.options.db, filter)).ids);
  }

  /**
   * Unlike eladmin, which gives every new account '123456', the server makes up a random
   * password and answers it once (201 { password }); only its hash is kept.
   */
  async create(caller: Principal, body: UserCreate): Promise<{ password: string }> {
    const roleIds = await this.checkRoles(caller, body.roles);
    await this.checkDept(caller, body.dept.id);
    await this.checkUnique(body);
    const password = generatePassword();
    const now = Date.now();
    await insertUser(
      this.options.db,
      {
        ...this.columnsOf(body),
        password_hash: await hash(password),
        is_admin: 0,
        pwd_reset_time: now,
        ...created(caller.username, now),
      },
      roleIds,
    );
    return { password };
  }

  async update(caller: Principal, body: UserUpdate): Promise<void> {
    const targets = await this.existing([body.id]);
    await this.checkCanManage(caller, targets);
    // A name from before the user-name rule may stay; a new name must follow the rule.
    if (targets.some((target) => target.username !== body.username)) {
      const renamed = usernameSchema.safeParse(body.username);
      if (!renamed.success) throw new HttpError(400, `username: ${renamed.error.issues[0]?.message ?? 'is not allowed'}`);
    }
    const roleIds = await this.checkRoles(caller, body.roles);
    await this.checkDept(caller, body.dept.id);
    await this.checkUnique(body, body.id);
    await updateUser(
      this.options.db,
      body.id,
      { ...this.columnsOf(body), ...changed(caller.username, Date.now()) },
      roleIds,
    );
    if (!body.enabled) await this.options.sessions.endAllOf([body.id], 'disabled');
  }

  async remove(caller: Principal, ids: readonly number[]): Promise<void> {
    const unique = [...new Set(ids)];
    if (unique.includes(caller.userId)) throw new HttpError(400, 'ids: you cannot delete your own account');
    const targets = await this.existing(unique);
    await this.checkCanManage(caller, targets);
    // Ended before the rows go, so whoever listens for ended sessions hears of these too.
    await this.options.sessions.endAllOf(unique, 'deleted');
    await deleteUsers(this.options.db, unique);
    for (const target of targets) await removeAvatar(this.options.dataDir, target.avatarName);
  }

  /**
   * eladmin checks no permission here at all (its issue #910); this asks user:edit in the
   * route and the same level and scope rules as an edit. Without a password each user gets a
   * generated one, answered once; either way their sessions end.
   */
  async resetPasswords(caller: Principal, body: ResetPassword): Promise<{ id: number; username: string; password: string }[] | undefined> {
    const targets = await this.existing([...new Set(body.ids)]);
    await this.checkCanManage(caller, targets);
    const passwords = targets.map((target) => ({ id: target.id, username: target.username, password: body.password ?? generatePassword() }));
    const hashes = await Promise.all(passwords.map(async ({ id, password }) => ({ id, passwordHash: await hash(password) })));
    const now = Date.now();
    await setPasswordHashes(this.options.db, hashes, { pwd_reset_time: now, ...changed(caller.username, now) });
    // The caller's own session survives when they are among the users reset.
    await this.options.sessions.endAllOf(
      targets.map((target) => target.id),
      'password reset',
      caller.sessionId,
    );
    return body.password === undefined ? passwords : undefined;
  }

  /**
   * `npm run reset-password -- <username>`, for whoever holds the server's console (a missed
   * first password, a forgotten one): no caller to check, but the same hashing as the app; the
   * user's sessions end and locks from failed logins and password changes are lifted. Without a password, one is
   * generated and answered once.
   */
  async resetPasswordFromConsole(username: string, password: string | undefined): Promise<{ password: string; enabled: boolean }> {
    const user = await findLoginCandidate(this.options.db, username);
    if (user === undefined) throw new HttpError(404, `no user named '${username}'`);
    const chosen = password ?? generatePassword();
    const now = Date.now();
    await setPasswordHashes(this.options.db, [{ id: user.id, passwordHash: await hash(chosen) }], {
      pwd_reset_time: now,
      ...changed('system', now),
    });
    await this.options.sessions.endAllOf([user.id], 'password reset');
    await loginThrottle(this.options.db).lift(loginAccount(user.username));
    await this.passwordChanges.lift(user.id);
    return { password: chosen, enabled: user.enabled };
  }

  async updateCenter(caller: Principal, body: UserCenter): Promise<void> {
    if (body.email !== null && (await isTaken(this.options.db, 'email', body.email, caller.userId))) {
      throw new HttpError(409, `email: ${body.email} is already in use`);
    }
    await updateUser(this.options.db, caller.userId, {
      nick_name: body.nickName,
      gender: body.gender,
      phone: body.phone,
      email: body.email,
      ...changed(caller.username, Date.now()),
    });
  }

  /**
   * Ends every other session of the user: whoever else holds one must log in with the new password.
   * `address` is the caller's (`request.ip`), as wrong current passwords are counted per address.
   */
  async changePassword(caller: Principal, body: UpdatePassword, address: string): Promise<void> {
    const now = Date.now();
    await this.passwordChanges.check(caller.userId, address, now);
    const current = await findPasswordHash(this.options.db, caller.userId);
    if (current === undefined || !(await verify(current, body.oldPass))) return this.passwordChanges.failed(caller.userId, address, now);
    await this.passwordChanges.succeeded(caller.userId, address);
    if (body.newPass === body.oldPass) throw new HttpError(400, 'newPass: must differ from the current password');
    await setPasswordHashes(this.options.db, [{ id: caller.userId, passwordHash: await hash(body.newPass) }], {
      pwd_reset_time: now,
      ...changed(caller.username, now),
    });
    await this.options.sessions.endAllOf([caller.userId], 'password changed', caller.sessionId);
  }

  async changeAvatar(caller: Principal, bytes: Buffer): Promise<{ avatar: string }> {
    const kind = imageKindOf(bytes);
    if (kind === undefined) throw new HttpError(400, 'avatar: must be a PNG, JPEG, GIF or WebP image');
    const [me] = await findUserRefs(this.options.db, [caller.userId]);
    const name = await saveAvatar(this.options.dataDir, bytes, kind);
    try {
      await updateUser(this.options.db, caller.userId, { avatar_name: name, ...changed(caller.username, Date.now()) });
    } catch (error) {
      await removeAvatar(this.options.dataDir, name);
      throw error;
    }
    await removeAvatar(this.options.dataDir, me?.avatarName ?? null);
    return { avatar: name };
  }

  /** The list's filter as the repository takes it, or undefined when the caller may see nobody it asks for. */
  private async repoFilter(caller: Principal, query: UserFilter): Promise<UserListFilter | undefined> {
    const { db } = this.options;
    const scope = await dataScopesOf(db, caller.userId);
    const asked = query.deptId === undefined ? undefined : await withDescendants(db, [query.deptId]);
    const deptIds = scope.length === 0 ? asked : asked === undefined ? scope : asked.filter((id) => scope.includes(id));
    if (deptIds?.length === 0) return undefined;
    return {
      ...(deptIds === undefined ? {} : { deptIds }),
      ...(query.blurry === undefined ? {} : { blurry: query.blurry }),
      ...(query.enabled === undefined ? {} : { enabled: query.enabled }),
      ...(query.createTime === undefined ? {} : { createTime: query.createTime }),
      sort: query.sort.length === 0 ? [{ field: 'id', direction: 'desc' }] : query.sort,
    };
  }

  private columnsOf(body: UserCreate) {
    return {
      username: body.username,
      nick_name: body.nickName,
      gender: body.gender,
      phone: body.phone,
      email: body.email,
      enabled: body.enabled ? (1 as const) : (0 as const),
      dept_id: body.dept.id,
    };
  }

  private async existing(ids: readonly number[]): Promise<UserRef[]> {
    const found = await findUserRefs(this.options.db, ids);
    const missing = ids.filter((id) => !found.some((user) => user.id === id));
    if (missing.length > 0) throw new HttpError(404, `no user with id ${missing.join(', ')}`);
    return found;
  }

  private async checkUnique(body: UserCreate, exceptId?: number): Promise<void> {
    if (await isTaken(this.options.db, 'username', body.username, exceptId)) {
      throw new HttpError(409, `username: ${body.username} is already taken`);
    }
    if (body.email !== null && (await isTaken(this.options.db, 'email', body.email, exceptId))) {
      throw new HttpError(409, `email: ${body.email} is already in use`);
    }
  }

  /** The roles must exist, and nobody hands out a role more powerful than their own best one. */
  private async checkRoles(caller: Principal, roles: readonly { id: number }[]): Promise<number[]> {
    const ids = [...new Set(roles.map((role) => role.id))];
    const found = await findRoleSummaries(this.options.db, ids);
    const missing = ids.filter((id) => !found.some((role) => role.id === id));
    if (missing.length > 0) throw new HttpError(400, `roles: no role with id ${missing.join(', ')}`);
    if (!caller.isAdmin) {
      const level = await this.levelOf(caller);
      const above = found.find((role) => role.level < level);
      if (above !== undefined) {
        throw new HttpError(403, `roles: you cannot give the role ${above.name} (level ${above.level}); your own level is ${level}`);
      }
    }
    return ids;
  }

  private async checkDept(caller: Principal, deptId: number): Promise<void> {
    if (!(await deptExists(this.options.db, deptId))) throw new HttpError(400, `dept: no department with id ${deptId}`);
    const scope = await dataScopesOf(this.options.db, caller.userId);
    if (scope.length > 0 && !scope.includes(deptId)) {
      throw new HttpError(403, 'dept: this department is outside the departments you manage');
    }
  }

  /**
   * eladmin's level rule: nobody manages a user whose best role level is more powerful (lower)
   * than their own. Beyond eladmin, administrators are managed only by administrators, and the
   * caller's data scope bounds writes as it bounds the list.
   */
  private async checkCanManage(caller: Principal, targets: readonly UserRef[]): Promise<void> {
    if (caller.isAdmin) return;
    await this.checkOutranks(caller, targets);
    const scope = await dataScopesOf(this.options.db, caller.userId);
    for (const target of targets) {
      if (scope.length > 0 && (target.deptId === null || !scope.includes(target.deptId))) {
        throw new HttpError(403, `${target.username} is outside the departments you manage`);
      }
    }
  }

  /**
   * The level half of the rule above, for acts on users that their data scope does not bound
   * (ending their sessions from the online list, which shows everyone). Callers may always act
   * on themselves.
   */
  async requireOutranks(caller: Principal, userIds: readonly number[]): Promise<void> {
    if (caller.isAdmin) return;
    const others = [...new Set(userIds)].filter((id) => id !== caller.userId);
    await this.checkOutranks(caller, await findUserRefs(this.options.db, others));
  }

  private async checkOutranks(caller: Principal, targets: readonly UserRef[]): Promise<void> {
    if (caller.isAdmin) return;
    const level = await this.levelOf(caller);
    for (const target of targets) {
      if (target.isAdmin) throw new HttpError(403, `${target.username} is an administrator; only an administrator may change them`);
      if (target.bestLevel !== null && target.bestLevel < level) {
        throw new HttpError(403, `${target.username} has a role of level ${target.bestLevel}, more powerful than your level ${level}`);
      }
    }
  }

  /** A caller without roles has no level and outranks nobody. */
  private async levelOf(caller: Principal): Promise<number> {
    return (await bestLevelOf(this.options.db, caller.userId)) ?? Number.POSITIVE_INFINITY;
  }
}
