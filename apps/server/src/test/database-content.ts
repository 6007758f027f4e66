import fs from 'node:fs';
import type { Kysely } from 'kysely';
import type { MenuSpec } from '../db/migration-helpers.js';
import { COURSE_MENUS } from '../db/migrations/0010-courses.js';
import { ENROLMENT_MENUS } from '../db/migrations/0011-enrolment.js';
import { EXAM_MENUS } from '../db/migrations/0012-exams.js';
import { CERTIFICATE_MENUS } from '../db/migrations/0015-certificates.js';
import { CERTIFICATE_PAGE_MENUS } from '../db/migrations/0016-certificate-pages.js';
import { CERTIFICATE_RULE_PAGE_MENUS } from '../db/migrations/0018-certificate-rule-page.js';
import { DATABASE_BACKUP_MENUS } from '../db/migrations/0022-database-backups.js';
import { CLOUD_STORAGE_MENUS } from '../db/migrations/0023-cloud-storage.js';
import { CENSUS_MENUS } from '../db/migrations/0019-census.js';
import { INSTALLATION_MEDIA_MENUS } from '../db/migrations/0021-installation-media.js';
import { DATABASE_MONITOR_MENUS } from '../db/migrations/0024-database-monitor.js';
import { MARKING_BUTTONS } from '../db/migrations/0013-attempts.js';
import type { Database } from '../db/schema.js';
import { DEMO_CANDIDATES } from '../db/seed/demo-candidates.js';

/**
 * What a database holds of reference and demo data, without ids or times: rows refer to each
 * other by name (a menu's parent by title, a grant by role name and menu title), so two
 * databases filled in a different order, or at different times, compare equal when they hold
 * the same things.
 */
export async function databaseContent(db: Kysely<Database>) {
  const menus = await db.selectFrom('sys_menu').selectAll().orderBy('id').execute();
  const menuTitle = new Map(menus.map((menu) => [menu.id, menu.title]));
  const depts = await db.selectFrom('sys_dept').selectAll().orderBy('id').execute();
  const deptName = new Map(depts.map((dept) => [dept.id, dept.name]));
  const roles = await db.selectFrom('sys_role').selectAll().orderBy('id').execute();
  const roleName = new Map(roles.map((role) => [role.id, role.name]));
  const dicts = await db.selectFrom('sys_dict').selectAll().orderBy('id').execute();
  const details = await db.selectFrom('sys_dict_detail').selectAll().orderBy('id').execute();
  const users = await db.selectFrom('sys_user').selectAll().orderBy('id').execute();
  const userRoles = await db.selectFrom('sys_users_roles').selectAll().execute();
  const roleMenus = await db.selectFrom('sys_roles_menus').selectAll().execute();
  const roleDepts = await db.selectFrom('sys_roles_depts').selectAll().execute();
  const namesOf = <T>(rows: T[], pick: (row: T) => string | undefined) => rows.map(pick).sort();

  return {
    menus: menus.map(({ id: _id, create_time: _c, update_time: _u, pid, ...menu }) => ({
      ...menu,
      parent: pid === null ? null : menuTitle.get(pid),
    })),
    dicts: dicts.map((dict) => ({
      name: dict.name,
      description: dict.description,
      by: [dict.create_by, dict.update_by],
      details: details
        .filter((detail) => detail.dict_id === dict.id)
        .map((detail) => ({ label: detail.label, labelEn: detail.label_en, value: detail.value, sort: detail.dict_sort, by: [detail.create_by, detail.update_by] })),
    })),
    roles: roles.map((role) => ({
      name: role.name,
      level: role.level,
      dataScope: role.data_scope,
      description: role.description,
      by: [role.create_by, role.update_by],
      menus: namesOf(roleMenus.filter((grant) => grant.role_id === role.id), (grant) => menuTitle.get(grant.menu_id)),
      depts: namesOf(roleDepts.filter((grant) => grant.role_id === role.id), (grant) => deptName.get(grant.dept_id)),
    })),
    depts: depts.map((dept) => ({
      name: dept.name,
      parent: dept.pid === null ? null : deptName.get(dept.pid),
      sort: dept.dept_sort,
      enabled: dept.enabled,
      subCount: dept.sub_count,
      by: [dept.create_by, dept.update_by],
    })),
    users: users.map((user) => ({
      username: user.username,
      nickName: user.nick_name,
      dept: user.dept_id === null ? null : deptName.get(user.dept_id),
      gender: user.gender,
      phone: user.phone,
      email: user.email,
      avatarName: user.avatar_name,
      isAdmin: user.is_admin,
      enabled: user.enabled,
      by: [user.create_by, user.update_by],
      roles: namesOf(userRoles.filter((grant) => grant.user_id === user.id), (grant) => roleName.get(grant.role_id)),
    })),
  };
}

export type DatabaseContent = Awaited<ReturnType<typeof databaseContent>>;

/**
 * What a first start put in before system data moved to migration 0009: read with
 * databaseContent from a database the old seed had filled (the same on both dialects).
 */
export const FIRST_START_CONTENT = JSON.parse(fs.readFileSync(new URL('first-start-content.json', import.meta.url), 'utf8')) as DatabaseContent;

/**
 * FIRST_START_CONTENT as the seed makes it now: since then the demo teacher's custom scope took in
 * 研发部, so that the teacher marks learner1's demo exam (issue 13). An install seeded before keeps
 * its teacher as it was (the role is the operators' to change), so upgrades start from
 * FIRST_START_CONTENT; a first start and a reset make this.
 */
/** The seeded roles' English descriptions, which 0027 made Chinese (keeping the English as `description_en`). */
const CHINESE_ROLE_DESCRIPTIONS = new Map([
  ['Administrators: everything', '管理员：全部权限'],
  ['Teachers: content, exams, marking and certificates of the training department and R&D', '讲师：培训部与研发部的课程、考试、阅卷和证书'],
  ['Teachers: content, exams, marking and certificates of the training department', '讲师：培训部的课程、考试、阅卷和证书'],
  ['Learners: no back office', '学员：不进入后台'],
]);

/** The content with the seeded roles described in Chinese, as 0027 leaves an upgraded install. */
export function withChineseRoleDescriptions(content: DatabaseContent): DatabaseContent {
  return { ...content, roles: content.roles.map((role) => ({ ...role, description: CHINESE_ROLE_DESCRIPTIONS.get(role.description ?? '') ?? role.description })) };
}

export const FIRST_START_CONTENT_NOW: DatabaseContent = withChineseRoleDescriptions({
  ...FIRST_START_CONTENT,
  roles: FIRST_START_CONTENT.roles.map((role) =>
    role.name === 'teacher'
      ? { ...role, description: 'Teachers: content, exams, marking and certificates of the training department and R&D', depts: ['培训部', '研发部'] }
      : role,
  ),
});

/**
 * Writes content as databaseContent reads it, in its order, into tables that hold none of it:
 * a database as an earlier version's first start left it, whatever the seed has become since.
 */
export async function insertDatabaseContent(db: Kysely<Database>, content: DatabaseContent, passwordHash = 'not-a-hash'): Promise<void> {
  const times = { create_time: 1, update_time: 1 };
  const byOf = (pair: Array<string | null>) => ({ create_by: pair[0] ?? null, update_by: pair[1] ?? null });
  const menuIds = new Map<string, number>();
  for (const { parent, ...menu } of content.menus) {
    const pid = parent === null || parent === undefined ? null : (menuIds.get(parent) ?? null);
    const { id } = await db.insertInto('sys_menu').values({ ...menu, ...times, pid }).returning('id').executeTakeFirstOrThrow();
    menuIds.set(menu.title, id);
  }
  for (const dict of content.dicts) {
    const { id } = await db
      .insertInto('sys_dict')
      .values({ ...times, ...byOf(dict.by), name: dict.name, description: dict.description })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const detail of dict.details) {
      await db
        .insertInto('sys_dict_detail')
        .values({ ...times, ...byOf(detail.by), dict_id: id, label: detail.label, label_en: detail.labelEn, value: detail.value, dict_sort: detail.sort })
        .execute();
    }
  }
  const deptIds = new Map<string, number>();
  for (const dept of content.depts) {
    const { id } = await db
      .insertInto('sys_dept')
      .values({
        ...times,
        ...byOf(dept.by),
        pid: dept.parent === null || dept.parent === undefined ? null : (deptIds.get(dept.parent) ?? null),
        name: dept.name,
        dept_sort: dept.sort,
        enabled: dept.enabled,
        sub_count: dept.subCount,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    deptIds.set(dept.name, id);
  }
  const roleIds = new Map<string, number>();
  for (const role of content.roles) {
    const { id } = await db
      .insertInto('sys_role')
      .values({ ...times, ...byOf(role.by), name: role.name, level: role.level, data_scope: role.dataScope, description: role.description })
      .returning('id')
      .executeTakeFirstOrThrow();
    roleIds.set(role.name, id);
    for (const title of role.menus) await db.insertInto('sys_roles_menus').values({ role_id: id, menu_id: menuIds.get(title ?? '') ?? -1 }).execute();
    for (const name of role.depts) await db.insertInto('sys_roles_depts').values({ role_id: id, dept_id: deptIds.get(name ?? '') ?? -1 }).execute();
  }
  for (const user of content.users) {
    const { id } = await db
      .insertInto('sys_user')
      .values({
        ...times,
        ...byOf(user.by),
        dept_id: user.dept === null || user.dept === undefined ? null : (deptIds.get(user.dept) ?? null),
        username: user.username,
        nick_name: user.nickName,
        gender: user.gender,
        phone: user.phone,
        email: user.email,
        avatar_name: user.avatarName,
        password_hash: passwordHash,
        is_admin: user.isAdmin,
        enabled: user.enabled,
        pwd_reset_time: 1,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const name of user.roles) await db.insertInto('sys_users_roles').values({ user_id: id, role_id: roleIds.get(name ?? '') ?? -1 }).execute();
  }
}

const titlesOf = (menus: readonly MenuSpec[]): string[] => menus.flatMap((menu) => [menu.title, ...titlesOf(menu.children ?? [])]);
const COURSE_MENU_TITLES = new Set(titlesOf([...COURSE_MENUS, ...ENROLMENT_MENUS, ...EXAM_MENUS, ...MARKING_BUTTONS, ...CERTIFICATE_MENUS, ...CERTIFICATE_PAGE_MENUS, ...CERTIFICATE_RULE_PAGE_MENUS, ...CENSUS_MENUS]));
// 0021, 0022 and 0023 add their pages to 0009's tools directory, 0024 its to the monitoring one; both stay.
const LATER_SYSTEM_MENU_TITLES = titlesOf([...INSTALLATION_MEDIA_MENUS, ...DATABASE_BACKUP_MENUS, ...CLOUD_STORAGE_MENUS, ...DATABASE_MONITOR_MENUS].flatMap((directory) => directory.children ?? []));
for (const title of LATER_SYSTEM_MENU_TITLES) COURSE_MENU_TITLES.add(title);

/**
 * The content without the menus later migrations added (the education menus of 0010 and after, the
 * installation media, database backup and cloud storage pages of 0021 to 0023, the database monitor of 0024) and their grants: what a first start made before 0010, which
 * FIRST_START_CONTENT records.
 */
export function withoutCourseMenus(content: DatabaseContent): DatabaseContent {
  // A directory that stays (the tools) counts the pages later migrations added to it no more.
  const removedUnder = new Map<string, number>();
  for (const menu of content.menus) {
    if (COURSE_MENU_TITLES.has(menu.title) && typeof menu.parent === 'string') removedUnder.set(menu.parent, (removedUnder.get(menu.parent) ?? 0) + 1);
  }
  return {
    ...content,
    menus: content.menus
      .filter((menu) => !COURSE_MENU_TITLES.has(menu.title))
      .map((menu) => (removedUnder.has(menu.title) ? { ...menu, sub_count: menu.sub_count - (removedUnder.get(menu.title) ?? 0) } : menu)),
    roles: content.roles.map((role) => ({ ...role, menus: role.menus.filter((title) => title === undefined || !COURSE_MENU_TITLES.has(title)) })),
  };
}

const CANDIDATE_NAMES = new Set(DEMO_CANDIDATES.map((user) => user.username));

/**
 * The content without the demo exam's candidates (demo-candidates.ts), who come with the demo
 * catalogue: what a first start made of people before them, which FIRST_START_CONTENT records.
 */
export function withoutDemoCandidates(content: DatabaseContent): DatabaseContent {
  return { ...content, users: content.users.filter((user) => !CANDIDATE_NAMES.has(user.username)) };
}
