import crypto from 'node:crypto';
import { hash } from '@node-rs/argon2';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../schema.js';
import { created } from '../audit-columns.js';
import { seedDepts, seedDicts, seedMenus, seedRoles, seedUsers, type SeedDept, type SeedMenu } from './seed-data.js';

export type SeedResult =
  | { seeded: false }
  | { seeded: true; adminPassword: string; passwordWasGenerated: boolean; usernames: string[] };

/**
 * First start on an empty database: the demo organisation, its roles and menus, the admin
 * account and a few demo people. Does nothing once any user exists. One transaction, so a
 * crash half-way leaves an empty database that the next start seeds again.
 */
export async function seedIfEmpty(db: Kysely<Database>, adminPassword: string | undefined): Promise<SeedResult> {
  const existing = await db.selectFrom('sys_user').select('id').limit(1).executeTakeFirst();
  if (existing !== undefined) return { seeded: false };
  const password = adminPassword ?? crypto.randomBytes(12).toString('base64url');
  const passwordHash = await hash(password);
  await db.transaction().execute((trx) => seed(trx, passwordHash));
  return {
    seeded: true,
    adminPassword: password,
    passwordWasGenerated: adminPassword === undefined,
    usernames: seedUsers.map((user) => user.username),
  };
}

async function seed(trx: Transaction<Database>, passwordHash: string): Promise<void> {
  const now = Date.now();
  const audit = created('system', now);

  const deptIds = new Map<string, number>();
  const insertDepts = async (depts: SeedDept[], pid: number | null): Promise<void> => {
    for (const [index, dept] of depts.entries()) {
      const { id } = await trx
        .insertInto('sys_dept')
        .values({ ...audit, pid, name: dept.name, dept_sort: index + 1, enabled: 1, sub_count: dept.children?.length ?? 0 })
        .returning('id')
        .executeTakeFirstOrThrow();
      deptIds.set(dept.name, id);
      await insertDepts(dept.children ?? [], id);
    }
  };
  await insertDepts(seedDepts, null);

  const menuIds = new Map<string, number>();
  const insertMenus = async (menus: SeedMenu[], pid: number | null): Promise<void> => {
    for (const [index, menu] of menus.entries()) {
      const { id } = await trx
        .insertInto('sys_menu')
        .values({
          ...audit,
          pid,
          type: menu.type,
          title: menu.title,
          title_en: menu.titleEn,
          component_name: menu.componentName ?? null,
          component: menu.component ?? null,
          path: menu.path ?? null,
          icon: menu.icon ?? null,
          menu_sort: index + 1,
          permission: menu.permission ?? null,
          i_frame: 0,
          cache: menu.cache ? 1 : 0,
          hidden: menu.hidden ? 1 : 0,
          sub_count: menu.children?.length ?? 0,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      menuIds.set(menu.title, id);
      await insertMenus(menu.children ?? [], id);
    }
  };
  await insertMenus(seedMenus, null);

  const roleIds = new Map<string, number>();
  for (const role of seedRoles) {
    const { id } = await trx
      .insertInto('sys_role')
      .values({ ...audit, name: role.name, level: role.level, data_scope: role.dataScope, description: role.description })
      .returning('id')
      .executeTakeFirstOrThrow();
    roleIds.set(role.name, id);
    const menus = role.menus === '*' ? [...menuIds.values()] : role.menus.map((title) => menuIds.get(title) as number);
    if (menus.length > 0) {
      await trx.insertInto('sys_roles_menus').values(menus.map((menuId) => ({ role_id: id, menu_id: menuId }))).execute();
    }
    const depts = (role.depts ?? []).map((name) => deptIds.get(name) as number);
    if (depts.length > 0) {
      await trx.insertInto('sys_roles_depts').values(depts.map((deptId) => ({ role_id: id, dept_id: deptId }))).execute();
    }
  }

  for (const user of seedUsers) {
    const { id } = await trx
      .insertInto('sys_user')
      .values({
        ...audit,
        dept_id: deptIds.get(user.dept) ?? null,
        username: user.username,
        nick_name: user.nickName,
        gender: user.gender,
        phone: user.phone,
        email: user.email,
        avatar_name: null,
        password_hash: passwordHash,
        is_admin: user.isAdmin ? 1 : 0,
        enabled: 1,
        pwd_reset_time: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('sys_users_roles')
      .values(user.roles.map((role) => ({ user_id: id, role_id: roleIds.get(role) as number })))
      .execute();
  }

  for (const dict of seedDicts) {
    const { id } = await trx
      .insertInto('sys_dict')
      .values({ ...audit, name: dict.name, description: dict.description })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('sys_dict_detail')
      .values(dict.details.map(([label, labelEn, value], sort) => ({ ...audit, dict_id: id, label, label_en: labelEn, value, dict_sort: sort + 1 })))
      .execute();
  }
}
