import fs from 'node:fs';
import path from 'node:path';
import { verify } from '@node-rs/argon2';
import { drawQuestions } from '@cloud-classroom/shared/exam-draw';
import { paperSchema } from '@cloud-classroom/shared/exams';
import { QUESTION_TYPES } from '@cloud-classroom/shared/question-scoring';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppDatabase } from '../db/database.js';
import { created } from '../db/audit-columns.js';
import type { Database } from '../db/schema.js';
import { EMPTIED_ON_RESET, KEPT_ON_RESET } from '../db/seed/seed.js';
import { DEMO_CANDIDATES } from '../db/seed/demo-candidates.js';
import { databaseContent, FIRST_START_CONTENT_NOW, withoutCourseMenus, withoutDemoCandidates, type DatabaseContent } from '../test/database-content.js';
import { buildTestApp, call, loginAs, openBlankTestDatabase, TEST_PASSWORD, testConfig } from '../test/test-app.js';
import { seedCommand, SEED_USAGE } from './seed-command.js';

let app: FastifyInstance;

beforeEach(async () => {
  app = await buildTestApp();
});
afterEach(async () => {
  await app.close();
});

/** The environment that points the command at a database, as the server's would. */
function envOf(database: AppDatabase, dataDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  if (database.dialect === 'sqlite') return { DATA_DIR: dataDir, ...extra };
  // A test database lives in a schema of its own: the URL's search_path takes the command there.
  const url = new URL(process.env.TEST_DATABASE_URL ?? '');
  url.searchParams.set('options', `-c search_path=${database.schema}`);
  return { DATABASE_URL: url.href, DATA_DIR: dataDir, ...extra };
}

const serverEnv = (extra: NodeJS.ProcessEnv = {}) => envOf(app.services.database, app.services.config.dataDir, extra);

async function run(args: string[], env: NodeJS.ProcessEnv = serverEnv()) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await seedCommand(args, env, { out: (text) => out.push(text), err: (text) => err.push(text) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const db = () => app.services.database.db;
const login = (username: string, password: string) => call(app, 'POST', '/auth/login', undefined, { username, password });
const byTitle = (content: DatabaseContent) => ({ ...content, menus: [...content.menus].sort((a, b) => a.title.localeCompare(b.title)) });

/**
 * The demo question bank and exam (demo-exams.ts): every type of question, and the fire-safety
 * course's exam, published and open, whose total adds up and whose draw rules the bank satisfies.
 */
async function expectDemoExam(database: Kysely<Database>, now: number): Promise<void> {
  const questions = await database.selectFrom('edu_question').select(['id', 'type', 'difficulty', 'score']).execute();
  expect(questions.length).toBeGreaterThanOrEqual(60);
  expect(new Set(questions.map((question) => question.type))).toEqual(new Set(QUESTION_TYPES));
  const tagged = await database.selectFrom('edu_question_tag as qt').innerJoin('edu_tag as t', 't.id', 'qt.tag_id').select(['qt.question_id', 't.name']).execute();
  const tagsOf = (id: number) => tagged.filter((row) => row.question_id === id).map((row) => row.name);
  expect(questions.every((question) => tagsOf(question.id).length > 0)).toBe(true);

  const exams = await database
    .selectFrom('edu_exam as e')
    .leftJoin('edu_course as c', 'c.id', 'e.course_id')
    .leftJoin('edu_term as t', 't.id', 'e.term_id')
    .selectAll('e')
    .select(['c.title as course', 't.name as term', 't.course_id as term_course_id'])
    .execute();
  expect(exams).toHaveLength(1);
  const exam = exams[0] as (typeof exams)[number];
  expect(exam).toMatchObject({ course: '消防安全基础', term: '2026 年第四季度', term_course_id: exam.course_id, status: 'published', limit_minutes: 30, attempts: 2, counts: 'best' });
  expect(exam.open_at).toBeLessThanOrEqual(now);
  expect(exam.close_at).toBe((exam.open_at ?? 0) + 30 * 86_400_000);

  const paper = paperSchema.parse(JSON.parse(exam.paper));
  const fixedIds = paper.sections.flatMap((section) => section.questionIds);
  const fixedRows = await database.selectFrom('edu_exam_question').select('question_id').where('exam_id', '=', exam.id).execute();
  expect(fixedRows.map((row) => row.question_id).sort((a, b) => a - b)).toEqual([...fixedIds].sort((a, b) => a - b));
  const rules = paper.sections.flatMap((section) => section.draw);
  expect(fixedIds.length).toBeGreaterThan(0);
  expect(rules.length).toBeGreaterThan(0);
  const scoreOf = (id: number) => questions.find((question) => question.id === id)?.score ?? Number.NaN;
  const total = paper.sections.reduce(
    (sum, section) => sum + section.questionIds.reduce((fixedSum, id) => fixedSum + (section.score ?? scoreOf(id)), 0) + section.draw.reduce((drawSum, rule) => drawSum + rule.count * rule.score, 0),
    0,
  );
  expect({ total: exam.total_score, count: exam.question_count, pass: exam.pass_score }).toEqual({
    total,
    count: fixedIds.length + rules.reduce((sum, rule) => sum + rule.count, 0),
    pass: total * 0.6,
  });
  // Drawn as the exams module draws a paper: the questions matching each rule, less the fixed ones.
  const demands = rules.map((rule) => ({
    count: rule.count,
    candidates: questions
      .filter((question) => question.type === rule.type && (rule.difficulty === null || question.difficulty === rule.difficulty))
      .filter((question) => rule.tags.length === 0 || tagsOf(question.id).some((tag) => rule.tags.includes(tag)))
      .map((question) => question.id),
  }));
  expect(drawQuestions(demands, fixedIds)).toMatchObject({ ok: true });

  const assignees = await database
    .selectFrom('edu_exam_assignee as a')
    .innerJoin('sys_user as u', 'u.id', 'a.user_id')
    .leftJoin('edu_assignment_rule as r', 'r.id', 'a.rule_id')
    .select(['u.username', 'a.source', 'r.target', 'r.exam_id'])
    .where('a.exam_id', '=', exam.id)
    .orderBy('u.username')
    .execute();
  // The demo learners, and the candidates who sat it (demo-attempts.ts): those of 学员服务组 by the rule.
  const candidates = new Map(DEMO_CANDIDATES.map((user) => [user.username, user]));
  expect(assignees.filter((row) => !candidates.has(row.username))).toEqual([
    { username: 'learner1', source: 'staff', target: null, exam_id: null },
    { username: 'learner2', source: 'staff', target: null, exam_id: null },
    { username: 'learner3', source: 'rule', target: 'dept', exam_id: exam.id },
  ]);
  expect(assignees.filter((row) => candidates.has(row.username)).map((row) => [row.username, row.source])).toEqual(
    [...candidates.values()].map((user) => [user.username, user.dept === '学员服务组' ? 'rule' : 'staff']).sort(([a], [b]) => (a as string).localeCompare(b as string)),
  );
}

describe('npm run seed', () => {
  it('refuses a database that holds people, and changes nothing', async () => {
    const before = await databaseContent(db());
    const { code, out, err } = await run([]);
    expect({ code, out }).toEqual({ code: 1, out: '' });
    expect(err).toMatch(/^The database \((sqlite|postgres): .*\) already holds users or departments; nothing was changed\.\n/);
    expect(err).toContain('npm run seed -- --reset');
    expect(await databaseContent(db())).toEqual(before);
  });

  it('--reset empties the people and their traces, keeps the operators’ menus, and seeds the demo organisation again', async () => {
    const admin = await loginAs(app, 'admin');
    const learnerRole = await db().selectFrom('sys_role').select('id').where('name', '=', 'learner').executeTakeFirstOrThrow();
    const newcomer = { username: 'newcomer', nickName: '新人', gender: '男', email: 'new@example.com', phone: '13900000009', enabled: true, dept: { id: 1 }, roles: [learnerRole] };
    const added = await call(app, 'POST', '/api/users', admin, newcomer);
    expect(added.statusCode, added.body).toBe(201);
    await db().updateTable('sys_menu').set({ title: '学员管理' }).where('component', '=', 'system/user/index').execute();
    await db().deleteFrom('sys_menu').where('permission', '=', 'dict:del').execute();
    await db().insertInto('sys_menu').values({ ...created('admin', 1), pid: null, type: 0, title: '我的目录', path: 'mine', menu_sort: 9, i_frame: 0, cache: 0, hidden: 0, sub_count: 0 }).execute();
    await db().insertInto('sys_role').values({ ...created('admin', 1), name: 'auditor', level: 2, data_scope: '本级', description: null }).execute();
    await db().insertInto('sys_local_storage').values({ ...created('admin', 1), real_name: 'a.txt', name: 'a', suffix: 'txt', path: 'files/202611/a.txt', type: 'txt', size: 1 }).execute();
    const avatarDir = path.join(app.services.config.dataDir, 'avatar');
    const avatar = `${'ab'.repeat(16)}.png`;
    fs.mkdirSync(avatarDir, { recursive: true });
    fs.writeFileSync(path.join(avatarDir, avatar), 'png');
    await db().updateTable('sys_user').set({ avatar_name: avatar }).where('username', '=', 'learner1').execute();
    const operatorsMenu = (await databaseContent(db())).menus.find((menu) => menu.title === '我的目录');

    const { code, out, err } = await run(['--reset'], serverEnv({ ADMIN_PASSWORD: 'a-new-password-2' }));
    expect({ code, err }).toEqual({ code: 0, err: '' });
    expect(out).toBe(
      'Reset: seeded the demo organisation again; the accounts admin, teacher, learner1, learner2 and learner3 share the password from ADMIN_PASSWORD.',
    );

    // The first start's content, with the operators' menus as they left them: the renamed page
    // keeps its name, their own directory stays, and the deleted system button is back.
    const renamed = (title: string | null | undefined) => (title === '用户管理' ? '学员管理' : title);
    const expected = {
      ...FIRST_START_CONTENT_NOW,
      menus: [
        ...FIRST_START_CONTENT_NOW.menus.map((menu) => ({ ...menu, title: renamed(menu.title) ?? '', parent: renamed(menu.parent) })),
        operatorsMenu,
      ],
      roles: FIRST_START_CONTENT_NOW.roles.map((role) => ({ ...role, menus: role.menus.map(renamed).sort() })),
    };
    const content = await databaseContent(db());
    expect(byTitle(withoutDemoCandidates(withoutCourseMenus(content)))).toEqual(byTitle(expected as DatabaseContent));
    expect(content.users.filter((user) => !expected.users.some((first) => first.username === user.username)).map((user) => user.username)).toEqual(
      DEMO_CANDIDATES.map((user) => user.username),
    );
    expect(content.roles.find((role) => role.name === 'teacher')?.menus).toContain('课程列表');

    expect((await call(app, 'GET', '/auth/info', admin)).statusCode).toBe(401);
    for (const table of ['sys_session', 'sys_log', 'sys_login_throttle', 'sys_captcha'] as const) {
      expect(await db().selectFrom(table).selectAll().execute(), table).toEqual([]);
    }
    expect(await db().selectFrom('sys_local_storage').select('real_name').execute()).toEqual([{ real_name: 'a.txt' }]);
    expect(fs.readdirSync(avatarDir)).toEqual([]);
    expect((await login('admin', TEST_PASSWORD)).statusCode).toBe(400);
    expect((await login('teacher', 'a-new-password-2')).statusCode).toBe(200);
  });

  it('migrates and seeds a blank database, printing the generated password once, then refuses a second time', async () => {
    const config = testConfig();
    const blank = await openBlankTestDatabase(config);
    try {
      const env = envOf(blank, config.dataDir);
      const first = await run([], env);
      expect(first.code, first.err).toBe(0);
      expect(first.out).toMatch(/^Migrated the database: 0001-app-setting, 0002-identity, .*0009-system-data/);
      expect(first.out).toContain('Seeded the demo organisation. The accounts');
      const password = /^│\s+(\S{16})\s+│$/m.exec(first.out)?.[1] ?? '';
      // With the demo exam's candidates, learners of the demo departments like learner1..3.
      const content = await databaseContent(blank.db);
      expect(withoutDemoCandidates(withoutCourseMenus(content))).toEqual(FIRST_START_CONTENT_NOW);
      expect(content.users.slice(FIRST_START_CONTENT_NOW.users.length)).toEqual(
        DEMO_CANDIDATES.map((user) => ({
          username: user.username,
          nickName: user.nickName,
          dept: user.dept,
          gender: user.gender,
          phone: user.phone,
          email: user.email,
          avatarName: null,
          isAdmin: 0,
          enabled: 1,
          by: ['system', 'system'],
          roles: ['learner'],
        })),
      );
      // The demo catalogue: three published courses and a draft, owned by the teacher, with the
      // demo media stored in the data folder and their facts read from the files.
      const courses = await blank.db.selectFrom('edu_course').select(['title', 'status', 'owner_id', 'cover_media_id']).orderBy('id').execute();
      const teacher = await blank.db.selectFrom('sys_user').select('id').where('username', '=', 'teacher').executeTakeFirstOrThrow();
      expect(courses.map((course) => course.status)).toEqual(['published', 'published', 'published', 'draft']);
      expect(courses.every((course) => course.owner_id === teacher.id)).toBe(true);
      expect(courses.filter((course) => course.cover_media_id !== null)).toHaveLength(3);
      const media = await blank.db.selectFrom('edu_media').selectAll().orderBy('id').execute();
      expect(media.find((row) => row.kind === 'video')?.duration_seconds).toBeCloseTo(8, 0);
      expect(media.filter((row) => row.kind === 'document').map((row) => row.pages)).toEqual([4, 3]);
      for (const row of media) expect(fs.statSync(path.join(config.dataDir, row.file_key)).size).toBe(row.size);
      const lessons = await blank.db.selectFrom('edu_lesson').select(['title', 'type', 'media_id']).execute();
      expect(new Set(lessons.map((lesson) => lesson.type))).toEqual(new Set(['video', 'document', 'text']));
      // Each document lesson shows its own handbook: the communication course's is not the safety one.
      const mediaName = (title: string) => media.find((row) => row.id === lessons.find((lesson) => lesson.title === title)?.media_id)?.name;
      expect(mediaName('员工消防安全手册')).toBe('安全培训手册 Safety training handbook.pdf');
      expect(mediaName('会议沟通参考手册')).toBe('会议沟通参考手册 Meeting communication handbook.pdf');
      expect(lessons.filter((lesson) => lesson.type !== 'text').every((lesson) => media.some((row) => row.id === lesson.media_id))).toBe(true);
      expect((await blank.db.selectFrom('edu_category').select('name').execute()).length).toBe(4);
      // The demo enrolments: learner1 in the open fire-safety term and awaiting approval in the
      // information-security one, whose department rule enrolled 培训部 and 市场部, learner2 overdue.
      const enrolments = await blank.db
        .selectFrom('edu_applicant as a')
        .innerJoin('sys_user as u', 'u.id', 'a.user_id')
        .innerJoin('edu_term as t', 't.id', 'a.term_id')
        .select(['u.username', 't.name', 'a.status', 'a.source', 'a.rule_id', 'a.due_at'])
        .orderBy('u.username')
        .orderBy('t.name')
        .execute();
      const [rule, ...otherRules] = await blank.db.selectFrom('edu_assignment_rule').select(['id', 'target', 'due_at']).where('term_id', 'is not', null).execute();
      expect(otherRules).toEqual([]);
      expect(rule?.target).toBe('dept');
      const now = Date.now();
      // learner1 and learner2 have studied (DEMO_STUDY), so their enrolments are in progress.
      const candidates = new Set(DEMO_CANDIDATES.map((user) => user.username));
      expect(enrolments.filter((row) => !candidates.has(row.username)).map(({ username, name, status, source, rule_id }) => [username, name, status, source, rule_id])).toEqual([
        ['learner1', '2026 年度全员培训', 'applied', 'self', null],
        ['learner1', '2026 年第四季度', 'in_progress', 'self', null],
        ['learner2', '2026 年度全员培训', 'in_progress', 'rule', rule?.id],
        ['learner3', '2026 年度全员培训', 'approved', 'rule', rule?.id],
        ['teacher', '2026 年度全员培训', 'approved', 'rule', rule?.id],
      ]);
      // The exam's candidates in the rule's departments are enrolled by it like everyone there.
      expect(enrolments.filter((row) => candidates.has(row.username)).map(({ username, status, rule_id }) => [username, status, rule_id])).toEqual(
        DEMO_CANDIDATES.filter((user) => user.dept !== '研发部')
          .map((user) => [user.username, 'approved', rule?.id])
          .sort(([a], [b]) => String(a).localeCompare(String(b))),
      );
      expect(enrolments.filter((row) => row.due_at !== null && row.due_at < now).map((row) => row.username)).toEqual(['learner2']);
      expect(rule?.due_at).toBeGreaterThan(now);
      const progress = await blank.db
        .selectFrom('edu_lesson_progress as p')
        .innerJoin('sys_user as u', 'u.id', 'p.user_id')
        .select(['u.username', 'p.percent', 'p.completed_at'])
        .orderBy('p.id')
        .execute();
      expect(progress.map((row) => [row.username, row.percent, row.completed_at !== null])).toEqual([
        ['learner1', 100, true],
        ['learner1', 100, true],
        ['learner2', 50, false],
      ]);
      const studied = await blank.db.selectFrom('edu_study_day').select(['day', 'seconds']).where('user_id', '=', (await blank.db.selectFrom('sys_user').select('id').where('username', '=', 'learner1').executeTakeFirstOrThrow()).id).execute();
      expect(studied.reduce((sum, row) => sum + row.seconds, 0)).toBe(97 * 60);
      await expectDemoExam(blank.db, now);
      const { password_hash } = await blank.db.selectFrom('sys_user').select('password_hash').where('username', '=', 'admin').executeTakeFirstOrThrow();
      expect(await verify(password_hash, password)).toBe(true);

      const second = await run([], env);
      expect(second.code).toBe(1);
      expect(second.err).toContain('already holds users or departments');
    } finally {
      await blank.db.destroy();
      await blank.dispose();
    }
    // It migrates a whole database and hashes a password twice: slow on a loaded machine.
  }, 90_000);

  it('shows the usage for anything but no argument or --reset', async () => {
    for (const args of [['--force'], ['--reset', 'now'], ['reset'], ['--help']]) {
      expect(await run(args)).toEqual({ code: 2, out: '', err: SEED_USAGE });
    }
  });

  it('--reset knows of every table whether it empties or keeps it', async () => {
    const tables = await db().introspection.getTables({ withInternalKyselyTables: true });
    const names = tables.filter((table) => table.schema === undefined || table.schema === app.services.database.schema).map((table) => table.name);
    expect(names.sort()).toEqual([...EMPTIED_ON_RESET, ...KEPT_ON_RESET].sort());
  });
});
