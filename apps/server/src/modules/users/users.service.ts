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
import type { Readable } from 'node:stream';
import { hash, verify } from '@node-rs/argon2';
import { withOutsideScope, type Page } from '@cloud-classroom/shared/http';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { conflict, invalidInput, notFound } from '../../domain-error.js';
import type { FileStore } from '../../files/file-store.js';
import type { FileOwner } from '../../files/orphan-files.js';
import type { Upload } from '../../files/upload.js';
import type { AccessService } from '../access/access.service.js';
import { loginAccount, loginThrottle } from '../auth/failure-throttle.js';
import { PasswordChangeThrottle } from '../auth/password-change-throttle.js';
import type { Principal, SessionService } from '../auth/session.service.js';
import type { DeptService } from '../depts/depts.service.js';
import type { RoleService } from '../roles/roles.service.js';
import { AVATAR_FOLDER, avatarContentType, avatarKey, avatarNameOf, newAvatarName } from './avatar-files.js';
import {
  countUsers,
  deleteUsers,
  findLoginCandidate,
  findPasswordHash,
  findUserDto,
  findUserDtos,
  findUserIds,
  findAvatarNamesInUse,
  findUserRefs,
  insertUser,
  isTaken,
  setPasswordHashes,
  updateUser,
  type LoginCandidate,
  type UserListFilter,
  type UserRef,
} from './users.repo.js';
import { changed, created } from '../../db/audit-columns.js';

export type UserServiceOptions = {
  db: Kysely<Database>;
  sessions: SessionService;
  files: FileStore;
  access: AccessService;
  roles: RoleService;
  depts: DeptService;
  clock: Clock;
};

/** 96 random bits, typeable: what a new or reset account gets when nobody chose a password. */
const generatePassword = () => crypto.randomBytes(12).toString('base64url');

/** Told the ids of people just created or whose department or roles may have changed. */
export type MembershipListener = (userIds: number[]) => Promise<void>;
/** Removes what other modules keep of people being deleted, inside the deletion's transaction. */
export type RemovalListener = (userIds: number[], trx: Kysely<Database>) => Promise<void>;

export class UserService {
  private readonly passwordChanges: PasswordChangeThrottle;
  private readonly membershipListeners: MembershipListener[] = [];
  private readonly removalListeners: RemovalListener[] = [];

  constructor(private readonly options: UserServiceOptions) {
    this.passwordChanges = new PasswordChangeThrottle(options.db);
  }

  /**
   * Calls `listener` after a user is created or edited (their department or roles may have
   * changed), once the change is committed; a listener's failure fails the request, so one that
   * may fail queues its work (the applicants' assignment rules queue a job).
   */
  onMembershipChange(listener: MembershipListener): void {
    this.membershipListeners.push(listener);
  }

  /** `listener` removes a module's rows of people as they are deleted (their enrolments, their progress). */
  onRemoval(listener: RemovalListener): void {
    this.removalListeners.push(listener);
  }

  private async membershipChanged(userIds: number[]): Promise<void> {
    for (const listener of this.membershipListeners) await listener(userIds);
  }

  /** The user as the wire shows them; undefined when they are gone. */
  async get(id: number): Promise<User | undefined> {
    return findUserDto(this.options.db, id);
  }

  /** Who logs in under this name (compared exactly), with what they need to be checked. */
  async loginCandidate(username: string): Promise<LoginCandidate | undefined> {
    return findLoginCandidate(this.options.db, username);
  }

  /** One page of the people the caller may see, saying how many more matched outside their data scope. */
  async page(caller: Principal, query: UserQuery): Promise<Page<User>> {
    const scope = await this.options.access.dataScopeOf(caller.userId);
    const asked = await this.askedDepts(query);
    const filter = this.repoFilter(scope, asked, query);
    let page: Page<User> = { content: [], totalElements: 0 };
    if (filter !== undefined) {
      const { ids, total } = await findUserIds(this.options.db, filter, { page: query.page, size: query.size });
      page = { content: await findUserDtos(this.options.db, ids), totalElements: total };
    }
    if (scope.length === 0) return page;
    // Counted by name alone: a count matched on contact details would spell out, one probe at a
    // time, the phone or e-mail of someone the caller may not see.
    const everyone = this.repoFilter([], asked, query);
    return everyone === undefined ? page : withOutsideScope(page, await countUsers(this.options.db, { ...everyone, outsideDeptIds: scope, blurryNamesOnly: true }));
  }

  /** Every matching user, for the export. */
  async all(caller: Principal, query: UserFilter): Promise<User[]> {
    const filter = this.repoFilter(await this.options.access.dataScopeOf(caller.userId), await this.askedDepts(query), query);
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
    const now = this.options.clock.now();
    const id = await insertUser(
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
    await this.membershipChanged([id]);
    return { password };
  }

  async update(caller: Principal, body: UserUpdate): Promise<void> {
    const targets = await this.existing([body.id]);
    await this.options.access.requireManages(caller, [body.id]);
    // A name from before the user-name rule may stay; a new name must follow the rule.
    if (targets.some((target) => target.username !== body.username)) {
      const renamed = usernameSchema.safeParse(body.username);
      if (!renamed.success) throw invalidInput(`username: ${renamed.error.issues[0]?.message ?? 'is not allowed'}`);
    }
    const roleIds = await this.checkRoles(caller, body.roles);
    await this.checkDept(caller, body.dept.id);
    await this.checkUnique(body, body.id);
    await updateUser(
      this.options.db,
      body.id,
      { ...this.columnsOf(body), ...changed(caller.username, this.options.clock.now()) },
      roleIds,
    );
    await this.membershipChanged([body.id]);
    if (!body.enabled) await this.options.sessions.endAllOf([body.id], 'disabled');
  }

  async remove(caller: Principal, ids: readonly number[]): Promise<void> {
    const unique = [...new Set(ids)];
    if (unique.includes(caller.userId)) throw invalidInput('ids: you cannot delete your own account');
    const targets = await this.existing(unique);
    await this.options.access.requireManages(caller, unique);
    // Ended before the rows go, so whoever listens for ended sessions hears of these too.
    await this.options.sessions.endAllOf(unique, 'deleted');
    // One transaction: nobody is left half deleted, holding a seat in a term after their account is gone.
    await this.options.db.transaction().execute(async (trx) => {
      for (const listener of this.removalListeners) await listener(unique, trx);
      await deleteUsers(trx, unique);
    });
    for (const target of targets) await this.removeAvatar(target.avatarName);
  }

  /**
   * eladmin checks no permission here at all (its issue #910); this asks user:edit in the
   * route and the same level and scope rules as an edit. Without a password each user gets a
   * generated one, answered once; either way their sessions end.
   */
  async resetPasswords(caller: Principal, body: ResetPassword): Promise<{ id: number; username: string; password: string }[] | undefined> {
    const ids = [...new Set(body.ids)];
    const targets = await this.existing(ids);
    await this.options.access.requireManages(caller, ids);
    const passwords = targets.map((target) => ({ id: target.id, username: target.username, password: body.password ?? generatePassword() }));
    const hashes = await Promise.all(passwords.map(async ({ id, password }) => ({ id, passwordHash: await hash(password) })));
    const now = this.options.clock.now();
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
    if (user === undefined) throw notFound(`no user named '${username}'`);
    const chosen = password ?? generatePassword();
    const now = this.options.clock.now();
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
      throw conflict(`email: ${body.email} is already in use`);
    }
    await updateUser(this.options.db, caller.userId, {
      nick_name: body.nickName,
      gender: body.gender,
      phone: body.phone,
      email: body.email,
      ...changed(caller.username, this.options.clock.now()),
    });
  }

  /**
   * Ends every other session of the user: whoever else holds one must log in with the new password.
   * `address` is the caller's (`request.ip`), as wrong current passwords are counted per address.
   */
  async changePassword(caller: Principal, body: UpdatePassword, address: string): Promise<void> {
    const now = this.options.clock.now();
    await this.passwordChanges.check(caller.userId, address, now);
    const current = await findPasswordHash(this.options.db, caller.userId);
    if (current === undefined || !(await verify(current, body.oldPass))) return this.passwordChanges.failed(caller.userId, address, now);
    await this.passwordChanges.succeeded(caller.userId, address);
    if (body.newPass === body.oldPass) throw invalidInput('newPass: must differ from the current password');
    await setPasswordHashes(this.options.db, [{ id: caller.userId, passwordHash: await hash(body.newPass) }], {
      pwd_reset_time: now,
      ...changed(caller.username, now),
    });
    await this.options.sessions.endAllOf([caller.userId], 'password changed', caller.sessionId);
  }

  /** Stores the image (a type the upload reader let through) under a new name, then points the caller's row at it. */
  async changeAvatar(caller: Principal, upload: Upload): Promise<{ avatar: string }> {
    const name = newAvatarName(upload.type);
    if (name === undefined) throw invalidInput(`${upload.field}: must be a PNG, JPEG, GIF or WebP image`);
    const [me] = await findUserRefs(this.options.db, [caller.userId]);
    await this.options.files.put(avatarKey(name), upload.content);
    try {
      await updateUser(this.options.db, caller.userId, { avatar_name: name, ...changed(caller.username, this.options.clock.now()) });
    } catch (error) {
      await this.removeAvatar(name);
      throw error;
    }
    await this.removeAvatar(me?.avatarName ?? null);
    return { avatar: name };
  }

  /** The avatar image of that name, if the name is one we generate and the file is there. */
  async avatar(name: string): Promise<{ content: Readable; contentType: string } | undefined> {
    const contentType = avatarContentType(name);
    const content = contentType === undefined ? undefined : await this.options.files.get(avatarKey(name));
    return content && contentType ? { content, contentType } : undefined;
  }

  /** Avatars in the file store, for the sweep of files no row refers to. */
  readonly avatarFiles: FileOwner = {
    folder: AVATAR_FOLDER,
    referenced: async (keys) => {
      const names = keys.flatMap((key) => avatarNameOf(key) ?? []);
      const inUse = new Set(await findAvatarNamesInUse(this.options.db, names));
      return new Set(keys.filter((key) => inUse.has(avatarNameOf(key) ?? '')));
    },
  };

  /** Deletes avatar files no row points at any more (the accounts `npm run seed -- --reset` removed). */
  async removeAvatarFiles(names: readonly string[]): Promise<void> {
    for (const name of names) await this.removeAvatar(name);
  }

  private async removeAvatar(name: string | null): Promise<void> {
    if (name !== null && avatarContentType(name) !== undefined) await this.options.files.delete(avatarKey(name));
  }

  /** The department subtree the list asks for, if it names one. */
  private async askedDepts(query: UserFilter): Promise<number[] | undefined> {
    return query.deptId === undefined ? undefined : this.options.access.deptSubtrees([query.deptId]);
  }

  /** The list's filter within a data scope ([] = everyone) as the repository takes it, or undefined when it leaves nobody. */
  private repoFilter(scope: readonly number[], asked: readonly number[] | undefined, query: UserFilter): UserListFilter | undefined {
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
    if (missing.length > 0) throw notFound(`no user with id ${missing.join(', ')}`);
    return found;
  }

  private async checkUnique(body: UserCreate, exceptId?: number): Promise<void> {
    if (await isTaken(this.options.db, 'username', body.username, exceptId)) {
      throw conflict(`username: ${body.username} is already taken`);
    }
    if (body.email !== null && (await isTaken(this.options.db, 'email', body.email, exceptId))) {
      throw conflict(`email: ${body.email} is already in use`);
    }
  }

  /** The roles must exist, and nobody hands out a role more powerful than their own best one. */
  private async checkRoles(caller: Principal, roles: readonly { id: number }[]): Promise<number[]> {
    const ids = [...new Set(roles.map((role) => role.id))];
    const found = await this.options.roles.summaries(ids);
    const missing = ids.filter((id) => !found.some((role) => role.id === id));
    if (missing.length > 0) throw invalidInput(`roles: no role with id ${missing.join(', ')}`);
    await this.options.access.requireRolesGivable(caller, found);
    return ids;
  }

  private async checkDept(caller: Principal, deptId: number): Promise<void> {
    if ((await this.options.depts.unknownIds([deptId])).length > 0) throw invalidInput(`dept: no department with id ${deptId}`);
    await this.options.access.requireDeptInScope(caller, deptId);
  }
}
