import crypto from 'node:crypto';
import { DEFAULT_TIME_ZONE } from '@cloud-classroom/shared/calendar-day';
import { hash } from '@node-rs/argon2';
import { sql, type Kysely, type Transaction } from 'kysely';
import { isPostgres } from '../dialect.js';
import type { Database } from '../schema.js';
import { created } from '../audit-columns.js';
import { reapplyReferenceData } from '../migrate.js';
import { addMenus, addRole, grantMenusToRole } from '../migration-helpers.js';
import type { FileStore } from '../../files/file-store.js';
import { publishDemoPackage } from '../../modules/deploy/demo-package.js';
import { storeDemoMedia } from '../../modules/media/demo-media.js';
import { recountEveryone } from '../../modules/census/census.service.js';
import { announceExisting } from '../../modules/notifications/notifications.service.js';
import { insertDemoAttempts } from './demo-attempts.js';
import { insertDemoCertificates } from './demo-certificates.js';
import { DEMO_CANDIDATES } from './demo-candidates.js';
import { insertDemoCourses } from './demo-courses.js';
import { insertDemoExams } from './demo-exams.js';
import { seedDepts, seedRoles, seedUsers, type SeedDept, type SeedUser } from './seed-data.js';

export type Seeded = { seeded: true; adminPassword: string; passwordWasGenerated: boolean; usernames: string[] };
export type SeedResult = { seeded: false } | Seeded;

/**
 * First start on an empty database: the admin account and the demo organisation (departments,
 * demo roles, a few people). The system data they refer to (menus, the admin role,
 * dictionaries) came with the migrations. Does nothing once any user exists. One transaction,
 * so a crash half-way leaves an empty database that the next start seeds again.
 */
/** The advisory lock the first start's seeding holds on PostgreSQL (any number no other lock uses). */
const SEED_LOCK = 730_001;

export async function seedIfEmpty(db: Kysely<Database>, adminPassword: string | undefined, files?: FileStore, timeZone = DEFAULT_TIME_ZONE): Promise<SeedResult> {
  if (await anyRow(db, 'sys_user')) return { seeded: false };
  const account = await accountPassword(adminPassword);
  const seeded = await db.transaction().execute(async (trx) => {
    // Nodes started together on one fresh PostgreSQL database all find it empty: the first to take
    // the lock seeds, the others wait for its commit and find people there (a second seed failed
    // on a duplicate role and stopped that node). SQLite runs one transaction at a time already.
    if (isPostgres(db)) await sql`select pg_advisory_xact_lock(${SEED_LOCK})`.execute(trx);
    if (await anyRow(trx, 'sys_user')) return false;
    await seedDemo(trx, account.hash, files, timeZone);
    return true;
  });
  return seeded ? seededWith(account) : { seeded: false };
}

/** Whether people or departments exist, which `npm run seed` refuses to add the demo organisation to. */
export async function holdsOrganisation(db: Kysely<Database>): Promise<boolean> {
  return (await anyRow(db, 'sys_user')) || (await anyRow(db, 'sys_dept'));
}

/**
 * What `npm run seed -- --reset` empties: everything people and their use of the back office
 * made, children before parents. Every table is either here or in KEPT_ON_RESET (a test checks).
 */
export const EMPTIED_ON_RESET = [
  'sys_session',
  'sys_notification',
  'sys_notification_pref',
  'sys_users_roles',
  'sys_roles_menus',
  'sys_roles_depts',
  'sys_user',
  // All of them, the admin role included: reapplyReferenceData brings the system's back with their menus.
  'sys_role',
  'sys_dept',
  'sys_log',
  'sys_login_throttle',
  'sys_captcha',
  // The answers kept for keys name people who are removed.
  'sys_idempotency',
  // The demo catalogue comes back with the demo; media files no row refers to any more are swept
  // at a later start (files/orphan-files.ts).
  'edu_census_login',
  'edu_census_course',
  'edu_certificate',
  'edu_cert_rule',
  'edu_cert_sequence',
  'edu_cert_template_version',
  'edu_cert_template',
  'edu_score_change',
  'edu_attempt_event',
  'edu_attempt_answer',
  'edu_attempt',
  'edu_exam_assignee',
  'edu_exam_question',
  'edu_exam',
  'edu_question_tag',
  'edu_tag',
  'edu_question',
  'edu_question_image',
  'edu_study_day',
  'edu_playback',
  'edu_lesson_progress',
  'edu_assignment_rule',
  'edu_applicant',
  'edu_lesson',
  'edu_chapter',
  'edu_term',
  'edu_course',
  'edu_category',
  'edu_media',
  // Queued work is about the people and records being removed.
  'sys_job',
] as const satisfies ReadonlyArray<keyof Database>;

/**
 * What it keeps: the system's reference data as the operators left it (renamed and added menus,
 * edited dictionaries; what is missing of the system's comes back); the settings with the
 * token-signing secret; stored files, which are content rather than organisation and whose
 * bytes the rows lead to; and the migrations' own bookkeeping.
 */
export const KEPT_ON_RESET = [
  'sys_menu',
  'sys_dict',
  'sys_dict_detail',
  'app_setting',
  'sys_local_storage',
  // Published installation media, like stored files; the demo's user guide is added only when there is none.
  'sys_deploy_package',
  // The cloud bucket's listing: a reset does not empty the bucket, so the rows that list it stay.
  'sys_cloud_file',
  'kysely_migration',
  'kysely_migration_lock',
] as const;

export type Reseeded = Seeded & {
  /** The avatar files of the removed accounts, for the caller to delete once the change is committed. */
  removedAvatars: string[];
};

/**
 * Empties the demo and user data (EMPTIED_ON_RESET), applies the migrations' reference data
 * again and seeds as a first start does, in one transaction: on failure nothing changes.
 */
export async function reseed(db: Kysely<Database>, adminPassword: string | undefined, files?: FileStore, timeZone = DEFAULT_TIME_ZONE): Promise<Reseeded> {
  const account = await accountPassword(adminPassword);
  const removedAvatars = await db.transaction().execute(async (trx) => {
    const avatars = await trx.selectFrom('sys_user').select('avatar_name').where('avatar_name', 'is not', null).execute();
    for (const table of EMPTIED_ON_RESET) await trx.deleteFrom(table).execute();
    await reapplyReferenceData(trx);
    await seedDemo(trx, account.hash, files, timeZone);
    return avatars.flatMap((user) => (user.avatar_name === null ? [] : [user.avatar_name]));
  });
  return { ...seededWith(account), removedAvatars };
}

async function anyRow(db: Kysely<Database>, table: 'sys_user' | 'sys_dept'): Promise<boolean> {
  return (await db.selectFrom(table).select('id').limit(1).executeTakeFirst()) !== undefined;
}

type AccountPassword = { password: string; generated: boolean; hash: string };

async function accountPassword(given: string | undefined): Promise<AccountPassword> {
  const password = given ?? crypto.randomBytes(12).toString('base64url');
  return { password, generated: given === undefined, hash: await hash(password) };
}

const seededWith = (account: AccountPassword): Seeded => ({
  seeded: true,
  adminPassword: account.password,
  passwordWasGenerated: account.generated,
  usernames: seedUsers.map((user) => user.username),
});

/**
 * `files`: where the demo courses' media go. Without it (most server tests, which need the
 * organisation but not a copy of the demo video each) the demo catalogue, and the question bank,
 * exam and the exam's candidates with their attempts that go with it, are left out.
 */
async function seedDemo(trx: Transaction<Database>, passwordHash: string, files: FileStore | undefined, timeZone: string): Promise<void> {
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

  for (const role of seedRoles) {
    const { id, inserted } = await addRole(trx, role, now);
    // A role of that name kept from before keeps its own choice of departments and menus.
    if (!inserted) continue;
    if (role.menus !== undefined) await grantMenusToRole(trx, role.name, (await addMenus(trx, role.menus, now)).ids);
    const depts = (role.depts ?? []).map((name) => deptIds.get(name) as number);
    if (depts.length > 0) {
      await trx.insertInto('sys_roles_depts').values(depts.map((deptId) => ({ role_id: id, dept_id: deptId }))).execute();
    }
  }
  const roles = await trx.selectFrom('sys_role').select(['id', 'name']).execute();
  const roleIds = new Map(roles.map((role) => [role.name, role.id]));

  const insertUsers = async (users: readonly SeedUser[]): Promise<void> => {
    for (const user of users) {
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
      // A system role an operator has removed is not brought back for an account: is_admin alone
      // makes the administrator one.
      const userRoles = user.roles.flatMap((name) => {
        const roleId = roleIds.get(name);
        return roleId === undefined ? [] : [{ user_id: id, role_id: roleId }];
      });
      if (userRoles.length > 0) await trx.insertInto('sys_users_roles').values(userRoles).execute();
    }
  };
  await insertUsers(seedUsers);

  if (files !== undefined) {
    const teacher = await trx.selectFrom('sys_user').select('id').where('username', '=', 'teacher').executeTakeFirst();
    // Before the catalogue and the exam, whose department rules enrol and assign them as they do anyone in those departments.
    await insertUsers(DEMO_CANDIDATES);
    await insertDemoCourses(trx, await storeDemoMedia(trx, files, now), teacher?.id ?? null, now, timeZone);
    const examId = await insertDemoExams(trx, now);
    await insertDemoAttempts(trx, examId, now);
    await insertDemoCertificates(trx, examId, now, timeZone);
    // The demo's enrolments and progress were inserted directly: the census counts them as its writers' recount would.
    await recountEveryone(trx, now);
    // And the notifications those writers would have sent, with their reminders queued.
    await announceExisting(trx, now);
    // The public download page's user guide.
    await publishDemoPackage(trx, files, now);
  }
}
