import type { Role, RoleCreate, RoleLevel, RoleMenus, RoleQuery, RoleUpdate } from '@cloud-classroom/shared/roles';
import type { Page } from '@cloud-classroom/shared/http';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { conflict, invalidInput, notFound } from '../../domain-error.js';
import type { AccessService } from '../access/access.service.js';
import type { Principal } from '../auth/session.service.js';
import type { DeptService } from '../depts/depts.service.js';
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
  type RoleSummary,
} from './roles.repo.js';

export class RoleService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly access: AccessService,
    private readonly depts: DeptService,
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
    if (role === undefined) throw notFound(`role ${id} not found`);
    return role;
  }

  /** Administrators stand at the top level whatever roles they hold. */
  async levelOf(principal: Principal): Promise<RoleLevel> {
    return this.access.levelOf(principal);
  }

  /** The roles among `ids` that exist, with their names and levels. */
  async summaries(ids: readonly number[]): Promise<RoleSummary[]> {
    return findRoleSummaries(this.db, ids);
  }

  async create(role: RoleCreate, principal: Principal): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await this.access.within(trx).requireRoleReach(principal, [role.level]);
      await requireFreeName(trx, role.name);
      const deptIds = await this.scopeDepts(trx, role);
      const id = await insertRole(trx, role, principal.username, this.clock.now());
      await replaceRoleDepts(trx, id, deptIds);
    });
  }

  async update(role: RoleUpdate, principal: Principal): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const [current] = await findRoleSummaries(trx, [role.id]);
      if (current === undefined) throw notFound(`role ${role.id} not found`);
      await this.access.within(trx).requireRoleReach(principal, [current.level, role.level]);
      await requireFreeName(trx, role.name, role.id);
      const deptIds = await this.scopeDepts(trx, role);
      await updateRole(trx, role.id, role, principal.username, this.clock.now());
      await replaceRoleDepts(trx, role.id, deptIds);
    });
  }

  /** Replaces the role's menus; its holders' permissions follow on their next request. */
  async updateMenus({ id, menus }: RoleMenus, principal: Principal): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const [current] = await findRoleSummaries(trx, [id]);
      if (current === undefined) throw notFound(`role ${id} not found`);
      await this.access.within(trx).requireRoleReach(principal, [current.level]);
      const menuIds = [...new Set(menus.map((menu) => menu.id))];
      const permissions = await findMenuPermissions(trx, menuIds);
      const unknown = menuIds.filter((menuId) => !permissions.has(menuId));
      if (unknown.length > 0) throw invalidInput(`menus: unknown menu id(s) ${unknown.join(', ')}`);
      // Otherwise a holder of roles:edit could give their own role user:del, and so on.
      await this.access.within(trx).requireGrantable(principal, [...permissions.values()], 'menus');
      await replaceRoleMenus(trx, id, menuIds);
      await touchRole(trx, id, principal.username, this.clock.now());
    });
  }

  /** The departments a role's scope names: only a custom scope keeps any. */
  private async scopeDepts(trx: Kysely<Database>, role: RoleCreate): Promise<number[]> {
    if (role.dataScope !== '自定义') return [];
    const ids = [...new Set(role.depts.map((dept) => dept.id))];
    const unknown = await this.depts.within(trx).unknownIds(ids);
    if (unknown.length > 0) throw invalidInput(`depts: unknown department id(s) ${unknown.join(', ')}`);
    return ids;
  }

  async delete(ids: readonly number[], principal: Principal): Promise<void> {
    const unique = [...new Set(ids)];
    await this.db.transaction().execute(async (trx) => {
      const roles = await findRoleSummaries(trx, unique);
      const missing = unique.find((id) => !roles.some((role) => role.id === id));
      if (missing !== undefined) throw notFound(`role ${missing} not found`);
      await this.access.within(trx).requireRoleReach(principal, roles.map((role) => role.level));
      const holders = await countHolders(trx, unique);
      const held = roles.find((role) => holders.has(role.id));
      if (held !== undefined) {
        throw conflict(`role '${held.name}' is still held by ${holders.get(held.id)} user(s); take it from them first`);
      }
      await deleteRoles(trx, unique);
    });
  }
}

async function requireFreeName(db: Kysely<Database>, name: string, ownId?: number): Promise<void> {
  const holder = await findRoleIdByName(db, name);
  if (holder !== undefined && holder !== ownId) throw conflict(`name: a role named '${name}' already exists`);
}
