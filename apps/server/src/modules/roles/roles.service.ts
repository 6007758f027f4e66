import { MIN_ROLE_LEVEL, type Role, type RoleCreate, type RoleLevel, type RoleMenus, type RoleQuery, type RoleUpdate } from '@cloud-classroom/shared/roles';
import type { Page } from '@cloud-classroom/shared/http';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { HttpError } from '../../http/http-error.js';
import type { Principal } from '../auth/session.service.js';
import { bestLevelOf, menuPermissionsOf } from '../users/users.repo.js';
import { findDeptLinks } from '../depts/depts.repo.js';
import {
  countHolders,
  deleteRoles,
  findMenuPermissions,
  findRoleDtos,
  findRoleIdByName,
  findRoleIds,
  findRoleSummaries,
  insertRole,
  replaceRoleDepts,
  replaceRoleMenus,
  touchRole,
  updateRole,
  type RoleFilter,
} from './roles.repo.js';

export class RoleService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  async list(query: RoleQuery): Promise<Page<Role>> {
    const { ids, total } = await findRoleIds(this.db, query, query);
    return { content: await findRoleDtos(this.db, ids), totalElements: total };
  }

  /** Every matching role, unpaged: the user form's role picker and the export. */
  async all(filter: RoleFilter = {}): Promise<Role[]> {
    return findRoleDtos(this.db, (await findRoleIds(this.db, filter)).ids);
  }

  async get(id: number): Promise<Role> {
    const [role] = await findRoleDtos(this.db, [id]);
    if (role === undefined) throw new HttpError(404, `role ${id} not found`);
    return role;
  }

  /** Administrators stand at the top level whatever roles they hold. */
  async levelOf(principal: Principal): Promise<RoleLevel> {
    return { level: principal.isAdmin ? MIN_ROLE_LEVEL : await bestLevelOf(this.db, principal.userId) };
  }

  async create(role: RoleCreate, principal: Principal): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await requireReach(trx, principal, [role.level]);
      await requireFreeName(trx, role.name);
      const deptIds = await scopeDepts(trx, role);
      const id = await insertRole(trx, role, principal.username, this.clock.now());
      await replaceRoleDepts(trx, id, deptIds);
    });
  }

  async update(role: RoleUpdate, principal: Principal): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const [current] = await findRoleSummaries(trx, [role.id]);
      if (current === undefined) throw new HttpError(404, `role ${role.id} not found`);
      await requireReach(trx, principal, [current.level, role.level]);
      await requireFreeName(trx, role.name, role.id);
      const deptIds = await scopeDepts(trx, role);
      await updateRole(trx, role.id, role, principal.username, this.clock.now());
      await replaceRoleDepts(trx, role.id, deptIds);
    });
  }

  /** Replaces the role's menus; its holders' permissions follow on their next request. */
  async updateMenus({ id, menus }: RoleMenus, principal: Principal): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const [current] = await findRoleSummaries(trx, [id]);
      if (current === undefined) throw new HttpError(404, `role ${id} not found`);
      await requireReach(trx, principal, [current.level]);
      const menuIds = [...new Set(menus.map((menu) => menu.id))];
      const permissions = await findMenuPermissions(trx, menuIds);
      const unknown = menuIds.filter((menuId) => !permissions.has(menuId));
      if (unknown.length > 0) throw new HttpError(400, `menus: unknown menu id(s) ${unknown.join(', ')}`);
      // Otherwise a holder of roles:edit could give their own role user:del, and so on.
      await requireGrantable(trx, principal, [...permissions.values()], 'menus');
      await replaceRoleMenus(trx, id, menuIds);
      await touchRole(trx, id, principal.username, this.clock.now());
    });
  }

  async delete(ids: readonly number[], principal: Principal): Promise<void> {
    const unique = [...new Set(ids)];
    await this.db.transaction().execute(async (trx) => {
      const roles = await findRoleSummaries(trx, unique);
      const missing = unique.find((id) => !roles.some((role) => role.id === id));
      if (missing !== undefined) throw new HttpError(404, `role ${missing} not found`);
      await requireReach(trx, principal, roles.map((role) => role.level));
      const holders = await countHolders(trx, unique);
      const held = roles.find((role) => holders.has(role.id));
      if (held !== undefined) {
        throw new HttpError(409, `role '${held.name}' is still held by ${holders.get(held.id)} user(s); take it from them first`);
      }
      await deleteRoles(trx, unique);
    });
  }
}

/**
 * Nobody hands out a permission they do not hold themselves (administrators hold all): neither by
 * giving a role a menu, nor by writing the code onto a menu some role already has. `field` names
 * the request field the 403 blames.
 */
export async function requireGrantable(
  db: Kysely<Database>,
  principal: Principal,
  permissions: Iterable<string | null>,
  field: string,
): Promise<void> {
  if (principal.isAdmin) return;
  const held = new Set(await menuPermissionsOf(db, principal.userId));
  const beyond = [...new Set([...permissions].filter((p): p is string => p !== null && p !== '' && !held.has(p)))];
  if (beyond.length > 0) {
    throw new HttpError(403, `${field}: you can only grant permissions you hold yourself, not ${beyond.sort().join(', ')}`);
  }
}

/** A caller may only manage roles at their own level or below it (a higher number). */
async function requireReach(db: Kysely<Database>, principal: Principal, levels: readonly number[]): Promise<void> {
  if (principal.isAdmin) return;
  const own = await bestLevelOf(db, principal.userId);
  if (own === null) throw new HttpError(403, 'level: you hold no role, so you cannot manage roles');
  const above = levels.find((level) => level < own);
  if (above !== undefined) {
    throw new HttpError(403, `level: your role level is ${own}; you cannot manage a role of level ${above}, which is above yours`);
  }
}

async function requireFreeName(db: Kysely<Database>, name: string, ownId?: number): Promise<void> {
  const holder = await findRoleIdByName(db, name);
  if (holder !== undefined && holder !== ownId) throw new HttpError(409, `name: a role named '${name}' already exists`);
}

/** The departments a role's scope names: only a custom scope keeps any. */
async function scopeDepts(db: Kysely<Database>, role: RoleCreate): Promise<number[]> {
  if (role.dataScope !== '自定义') return [];
  const ids = [...new Set(role.depts.map((dept) => dept.id))];
  const found = new Set((await findDeptLinks(db, ids)).map((link) => link.id));
  const unknown = ids.filter((id) => !found.has(id));
  if (unknown.length > 0) throw new HttpError(400, `depts: unknown department id(s) ${unknown.join(', ')}`);
  return ids;
}
