import { ADMIN_PERMISSION } from '@cloud-classroom/shared/constants';
import { mayManage, roleStanding, type Standing } from '@cloud-classroom/shared/role-level';
import { MIN_ROLE_LEVEL, type RoleLevel } from '@cloud-classroom/shared/roles';
import { descendantIds } from '@cloud-classroom/shared/tree';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { forbidden } from '../../domain-error.js';
import type { Principal } from '../auth/session.service.js';
import { findDeptParents, findMenuPermissions, findPeople, findScopeOfRoles, findUserIdByName, findUserStandings, isAdminUser, type UserStanding } from './access.repo.js';

/**
 * Who may do what to whom: permissions granted through menus, data scopes (which departments'
 * people one sees), and the level rule (`mayManage` in shared/role-level.ts) applied to users
 * and roles. Every module asks here; none works these out itself.
 */
export class AccessService {
  constructor(private readonly db: Kysely<Database>) {}

  /** The same rules read through a transaction, for checks that must see its writes and hold its locks. */
  within(db: Kysely<Database>): AccessService {
    return db === this.db ? this : new AccessService(db);
  }

  /**
   * What the user may do: the permission strings of every menu and button of every role they
   * hold, or just 'admin' for an administrator (which passes every check on both sides).
   */
  async permissionsOf(userId: number): Promise<string[]> {
    return (await isAdminUser(this.db, userId)) ? [ADMIN_PERMISSION] : findMenuPermissions(this.db, userId);
  }

  /** The permission strings the user's roles grant; for callers known not to be administrators. */
  async menuPermissionsOf(userId: number): Promise<string[]> {
    return findMenuPermissions(this.db, userId);
  }

  /**
   * Department ids whose people the user may see: the union over their roles of all (→ [] meaning
   * no restriction), their own department, or the role's chosen departments with their subtrees.
   */
  async dataScopeOf(userId: number): Promise<number[]> {
    const of = await findScopeOfRoles(this.db, userId);
    if (of === undefined || of.isAdmin) return [];
    const scopes = new Set(of.scopes);
    if (scopes.has('全部')) return [];
    const ids = new Set<number>();
    if (scopes.has('本级') && of.deptId !== null) ids.add(of.deptId);
    for (const id of await this.deptSubtrees(of.chosenDeptIds)) ids.add(id);
    // A user whose roles grant no department at all still sees nobody, not everybody.
    return ids.size === 0 ? [-1] : [...ids].sort((a, b) => a - b);
  }

  /**
   * The data scope of a record's author by their username (an assignment rule's, which reaches
   * people long after it was written). An author no longer there (or 'system') bounds nothing
   * ([]): the rule was theirs to make, and the people it covers keep being reached.
   */
  async dataScopeOfAuthor(username: string | null): Promise<number[]> {
    const userId = username === null ? undefined : await findUserIdByName(this.db, username);
    return userId === undefined ? [] : this.dataScopeOf(userId);
  }

  /** Many records' authors' data scopes, each read once (rules applied together). */
  authorScopes(): AuthorScopes {
    return new AuthorScopes(this);
  }

  /**
   * Acting on people (enrolling them, changing what is theirs): each must be within the caller's
   * data scope, else 403 naming `field` and the first one outside. Ids naming nobody are passed
   * over, for the caller to refuse as it sees fit.
   */
  async requireUsersInScope(caller: Principal, userIds: readonly number[], field: string): Promise<void> {
    if (caller.isAdmin || userIds.length === 0) return;
    this.requirePeopleInScope(await this.dataScopeOf(caller.userId), [...(await findPeople(this.db, [...new Set(userIds)])).values()], field);
  }

  /** The same for people read already with their department, against a scope read already. */
  requirePeopleInScope(scope: readonly number[], people: readonly { username: string; deptId: number | null }[], field: string): void {
    const outside = people.find((person) => !isInScope(scope, person.deptId));
    if (outside !== undefined) throw forbidden(`${field}: ${outside.username} is outside the departments you manage`);
  }

  /** The given departments and every department below them. */
  async deptSubtrees(roots: readonly number[]): Promise<number[]> {
    if (roots.length === 0) return [];
    return descendantIds(await findDeptParents(this.db), roots);
  }

  /** Where the caller stands for the level rule. */
  async standingOf(caller: Principal): Promise<Standing> {
    if (caller.isAdmin) return { isAdmin: true, level: MIN_ROLE_LEVEL };
    const [me] = await findUserStandings(this.db, [caller.userId]);
    return { isAdmin: false, level: me?.level ?? null };
  }

  /** The caller's best level as `GET api/roles/level` answers it: administrators stand at the top whatever roles they hold. */
  async levelOf(caller: Principal): Promise<RoleLevel> {
    return { level: (await this.standingOf(caller)).level };
  }

  /**
   * Nobody hands out a permission they do not hold themselves (administrators hold all): neither by
   * giving a role a menu, nor by writing the code onto a menu some role already has. `field` names
   * the request field the refusal blames.
   */
  async requireGrantable(caller: Principal, permissions: Iterable<string | null>, field: string): Promise<void> {
    if (caller.isAdmin) return;
    const held = new Set(await this.menuPermissionsOf(caller.userId));
    const beyond = [...new Set([...permissions].filter((p): p is string => p !== null && p !== '' && !held.has(p)))];
    if (beyond.length > 0) {
      throw forbidden(`${field}: you can only grant permissions you hold yourself, not ${beyond.sort().join(', ')}`);
    }
  }

  /** Managing roles (creating, editing, deleting, giving them menus): only at the caller's own level or below. */
  async requireRoleReach(caller: Principal, levels: readonly number[]): Promise<void> {
    const me = await this.standingOf(caller);
    if (me.isAdmin) return;
    if (me.level === null) throw forbidden('level: you hold no role, so you cannot manage roles');
    const above = levels.find((level) => !mayManage(me, roleStanding(level)));
    if (above !== undefined) {
      throw forbidden(`level: your role level is ${me.level}; you cannot manage a role of level ${above}, which is above yours`);
    }
  }

  /** Giving roles to a user: none more powerful than the caller's own best one. */
  async requireRolesGivable(caller: Principal, roles: readonly { name: string; level: number }[]): Promise<void> {
    const me = await this.standingOf(caller);
    const above = roles.find((role) => !mayManage(me, roleStanding(role.level)));
    if (above !== undefined) {
      throw forbidden(`roles: you cannot give the role ${above.name} (level ${above.level}); your own level is ${levelText(me)}`);
    }
  }

  /**
   * The level rule for acts on users that their data scope does not bound (ending their sessions
   * from the online list, which shows everyone). Callers may always act on themselves.
   */
  async requireOutranks(caller: Principal, userIds: readonly number[]): Promise<void> {
    if (caller.isAdmin) return;
    const others = [...new Set(userIds)].filter((id) => id !== caller.userId);
    this.checkOutranks(await this.standingOf(caller), await findUserStandings(this.db, others));
  }

  /**
   * Changing users (editing, deleting, resetting passwords): eladmin's level rule and, beyond
   * eladmin, administrators are managed only by administrators, and the caller's data scope
   * bounds writes as it bounds the list.
   */
  async requireManages(caller: Principal, userIds: readonly number[]): Promise<void> {
    if (caller.isAdmin) return;
    const targets = await findUserStandings(this.db, [...new Set(userIds)]);
    this.checkOutranks(await this.standingOf(caller), targets);
    const scope = await this.dataScopeOf(caller.userId);
    for (const target of targets) {
      if (scope.length > 0 && (target.deptId === null || !scope.includes(target.deptId))) {
        throw forbidden(`${target.username} is outside the departments you manage`);
      }
    }
  }

  /** A user is put only in a department the caller's data scope reaches. */
  async requireDeptInScope(caller: Principal, deptId: number): Promise<void> {
    const scope = await this.dataScopeOf(caller.userId);
    if (scope.length > 0 && !scope.includes(deptId)) {
      throw forbidden('dept: this department is outside the departments you manage');
    }
  }

  private checkOutranks(me: Standing, targets: readonly UserStanding[]): void {
    for (const target of targets) {
      if (mayManage(me, target)) continue;
      if (target.isAdmin) throw forbidden(`${target.username} is an administrator; only an administrator may change them`);
      throw forbidden(`${target.username} has a role of level ${target.level}, more powerful than your level ${levelText(me)}`);
    }
  }
}

/** Authors' data scopes by username (see `dataScopeOfAuthor`), each read once. */
export class AuthorScopes {
  private readonly byAuthor = new Map<string | null, Promise<number[]>>();
  constructor(private readonly access: AccessService) {}

  of(author: string | null): Promise<number[]> {
    let scope = this.byAuthor.get(author);
    if (scope === undefined) this.byAuthor.set(author, (scope = this.access.dataScopeOfAuthor(author)));
    return scope;
  }
}

/** Whether a person of the department is within the data scope ([]: everyone; no department: only within []). */
export const isInScope = (scope: readonly number[], deptId: number | null): boolean => scope.length === 0 || (deptId !== null && scope.includes(deptId));

/** A caller without roles has no level and outranks nobody; the messages have always called that Infinity. */
const levelText = (standing: Standing): string => String(standing.level ?? Number.POSITIVE_INFINITY);
