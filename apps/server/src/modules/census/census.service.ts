import { addDays, dayInZone, lastDayBefore, startOfDay } from '@cloud-classroom/shared/calendar-day';
import { CENSUS_LOGINS_SHOWN, type CensusListQuery, type CensusRow, type CensusUser, type CensusUserQuery } from '@cloud-classroom/shared/census';
import { certificateStatusAt } from '@cloud-classroom/shared/certificates';
import { formatDateTime } from '@cloud-classroom/shared/display';
import { mapPage, withOutsideScope, type Page } from '@cloud-classroom/shared/http';
import { percentOf } from '@cloud-classroom/shared/progress-rules';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { notFound } from '../../domain-error.js';
import { loadExcelJs, neutraliseCell } from '../../http/xlsx-export.js';
import type { AccessService } from '../access/access.service.js';
import type { Principal } from '../auth/session.service.js';
import {
  deleteCensusOfPeople,
  findCensusPage,
  findCoursesOfTerms,
  findPersonAttempts,
  findPersonCertificates,
  findPersonCourses,
  findPersonLogins,
  findStudyDays,
  insertLogin,
  recountAllCourses,
  recountCourses,
  recountWholeCourses,
  type CensusFilter,
  type CensusRowData,
} from './census.repo.js';

export type CensusOptions = {
  db: Kysely<Database>;
  clock: Clock;
  access: AccessService;
  /** The organisation's zone (config `TZ`): the days study time is counted in, and the date range's. */
  timeZone: string;
};

/** The record's chart covers this many days unless asked otherwise. */
const DEFAULT_DAYS = 30;

/** An .xlsx cell: text, a number, or empty. */
type Cell = string | number | boolean | null;

/**
 * People statistics (issue 15): one person's record and the list of people with their figures,
 * within the caller's data scope. The per-course figures come from `edu_census_course`, which the
 * writers keep through this service's `within(trx)` methods inside their own transactions
 * (services.ts wires them: an enrolment written, a lesson completed, a lesson made optional or
 * deleted, a login, a person deleted);
 * study time per day is `edu_study_day`, kept by the progress reports.
 */
export class CensusService {
  constructor(private readonly options: CensusOptions) {}

  /** The same service on a transaction's handle, for a writer's listener inside one. */
  within(db: Kysely<Database>): CensusService {
    return db === this.options.db ? this : new CensusService({ ...this.options, db });
  }

  private get db(): Kysely<Database> {
    return this.options.db;
  }

  // ---- Kept by the writers ----------------------------------------------------------------------

  /** Enrolments of these people in these terms were written (made, moved, deleted). */
  async enrolmentsChanged(enrolments: readonly { userId: number; termId: number }[]): Promise<void> {
    if (enrolments.length === 0) return;
    const courses = await findCoursesOfTerms(this.db, [...new Set(enrolments.map((enrolment) => enrolment.termId))]);
    const pairs = enrolments.flatMap(({ userId, termId }) => {
      const courseId = courses.get(termId);
      return courseId === undefined ? [] : [{ userId, courseId }];
    });
    await recountCourses(this.db, pairs, this.options.clock.now());
  }

  /** A progress report completed a lesson of the course. */
  async lessonCompleted(userId: number, courseId: number): Promise<void> {
    await recountCourses(this.db, [{ userId, courseId }], this.options.clock.now());
  }

  /** The courses' lessons changed in what completing them takes: everyone in them is counted again. */
  async coursesChanged(courseIds: readonly number[]): Promise<void> {
    await recountWholeCourses(this.db, courseIds, this.options.clock.now());
  }

  async loggedIn(userId: number, client: { ip: string; browser: string }): Promise<void> {
    await insertLogin(this.db, { userId, at: this.options.clock.now(), ...client });
  }

  /** People being deleted: their census rows and logins go with them. */
  async forgetPeople(userIds: readonly number[]): Promise<void> {
    await deleteCensusOfPeople(this.db, userIds);
  }

  // ---- The list ---------------------------------------------------------------------------------

  async list(caller: Principal, query: CensusListQuery): Promise<Page<CensusRow>> {
    const filter = await this.filterOf(caller, query);
    const page = mapPage(await findCensusPage(this.db, filter, query), rowOf);
    if (filter.scope.length === 0) return page;
    const everyone = await findCensusPage(this.db, { ...filter, scope: [] }, { page: 0, size: 1 });
    return withOutsideScope(page, everyone.totalElements - page.totalElements);
  }

  /** Everyone the list's filters match, in its order, as a workbook. */
  async listWorkbook(caller: Principal, query: CensusListQuery): Promise<{ title: string; content: Buffer }> {
    const page = await findCensusPage(this.db, await this.filterOf(caller, query), { sort: query.sort });
    const rows = page.content.map(rowOf);
    const content = await workbookOf([{ name: '学员统计', headers: PERSON_HEADERS, rows: rows.map(personCells) }]);
    return { title: '学员统计', content };
  }

  private async filterOf(caller: Principal, query: CensusListQuery): Promise<CensusFilter> {
    const { timeZone } = this.options;
    return {
      scope: await this.options.access.dataScopeOf(caller.userId),
      deptIds: query.deptId === undefined ? undefined : await this.options.access.deptSubtrees([query.deptId]),
      courseId: query.courseId,
      blurry: query.blurry,
      days: { from: query.from, to: query.to },
      instants: {
        from: query.from === undefined ? undefined : startOfDay(query.from, timeZone),
        to: query.to === undefined ? undefined : startOfDay(addDays(query.to, 1), timeZone),
      },
    };
  }

  // ---- One person -------------------------------------------------------------------------------

  /**
   * One person's record for the days asked (by default the last 30, today included): study time
   * per day, their courses, attempts started in those days, certificates and logins. Someone
   * outside the caller's data scope is answered as no one.
   */
  async user(caller: Principal, userId: number, query: CensusUserQuery): Promise<CensusUser> {
    const { timeZone } = this.options;
    const to = query.to ?? dayInZone(this.options.clock.now(), timeZone);
    const from = query.from ?? addDays(to, -(DEFAULT_DAYS - 1));
    const filter: CensusFilter = {
      scope: await this.options.access.dataScopeOf(caller.userId),
      ids: [userId],
      days: { from, to },
      instants: { from: startOfDay(from, timeZone), to: startOfDay(addDays(to, 1), timeZone) },
    };
    const [person] = (await findCensusPage(this.db, filter, {})).content;
    if (person === undefined) throw notFound(`id: no user ${userId}`);
    const now = this.options.clock.now();
    const [studied, courses, attempts, certificates, logins] = await Promise.all([
      findStudyDays(this.db, userId, from, to),
      findPersonCourses(this.db, userId),
      findPersonAttempts(this.db, userId, filter.instants.from as number, filter.instants.to as number),
      findPersonCertificates(this.db, userId),
      findPersonLogins(this.db, userId, CENSUS_LOGINS_SHOWN),
    ]);
    const days: CensusUser['days'] = [];
    for (let day = from; day <= to; day = addDays(day, 1)) days.push({ day, seconds: studied.get(day) ?? 0 });
    const time = (ms: number | null) => (ms === null ? null : formatDateTime(ms));
    return {
      person: rowOf(person),
      from,
      to,
      days,
      courses: courses.map((course) => ({
        courseId: course.course_id,
        title: course.title,
        status: course.status,
        enrolledAt: formatDateTime(course.enrolled_at),
        completedAt: time(course.completed_at),
        percent: percentOf(course.completed_lessons, course.required_lessons),
        completedLessons: course.completed_lessons,
        requiredLessons: course.required_lessons,
      })),
      attempts: attempts.map((attempt) => ({
        attemptId: attempt.id,
        examId: attempt.exam_id,
        examTitle: attempt.exam_title,
        number: attempt.number,
        state: attempt.state,
        startedAt: formatDateTime(attempt.started_at),
        submittedAt: time(attempt.submitted_at),
        score: attempt.score,
        totalScore: attempt.total_score,
        passed: attempt.passed,
      })),
      certificates: certificates.map((certificate) => ({
        id: certificate.id,
        number: certificate.number,
        title: certificate.title,
        issuedAt: formatDateTime(certificate.issued_at),
        expiresOn: certificate.expires_at === null ? null : lastDayBefore(certificate.expires_at, this.options.timeZone),
        status: certificateStatusAt({ expiresAt: certificate.expires_at, revokedAt: certificate.revoked_at, supersededAt: certificate.superseded_at }, now),
      })),
      logins: logins.map((login) => ({ at: formatDateTime(login.at), ip: login.ip, browser: login.browser })),
    };
  }

  /** The record as a workbook, a sheet per section, with the figures the page shows. */
  async userWorkbook(caller: Principal, userId: number, query: CensusUserQuery): Promise<{ title: string; content: Buffer }> {
    const record = await this.user(caller, userId, query);
    const content = await workbookOf([
      { name: '概览', headers: [...PERSON_HEADERS, '开始日期', '结束日期'], rows: [[...personCells(record.person), record.from, record.to]] },
      { name: '每日学习', headers: ['日期', '学习时长 (秒)'], rows: record.days.map((day) => [day.day, day.seconds]) },
      {
        name: '课程',
        headers: ['课程 ID', '课程', '状态', '报名时间', '完成时间', '进度 (%)', '已完成课时', '必修课时'],
        rows: record.courses.map((course) => [
          course.courseId,
          course.title,
          course.status,
          course.enrolledAt,
          course.completedAt,
          course.percent,
          course.completedLessons,
          course.requiredLessons,
        ]),
      },
      {
        name: '考试',
        headers: ['考试 ID', '考试', '第几次', '状态', '开始时间', '交卷时间', '得分', '总分', '是否及格'],
        rows: record.attempts.map((attempt) => [
          attempt.examId,
          attempt.examTitle,
          attempt.number,
          attempt.state,
          attempt.startedAt,
          attempt.submittedAt,
          attempt.score,
          attempt.totalScore,
          attempt.passed === null ? null : attempt.passed ? '是' : '否',
        ]),
      },
      {
        name: '证书',
        headers: ['证书编号', '名称', '颁发时间', '到期时间', '状态'],
        rows: record.certificates.map((certificate) => [certificate.number, certificate.title, certificate.issuedAt, certificate.expiresOn, certificate.status]),
      },
      { name: '登录', headers: ['登录时间', 'IP', '浏览器'], rows: record.logins.map((login) => [login.at, login.ip, login.browser]) },
    ]);
    return { title: `${record.person.nickName}-学员档案`, content };
  }
}

/**
 * Counts every census row again from the enrolments and progress: the demo seed's, which inserts
 * those rows directly rather than through the services.
 */
export async function recountEveryone(db: Kysely<Database>, now: number): Promise<void> {
  await recountAllCourses(db, now);
}

const PERSON_HEADERS = ['用户 ID', '用户名', '姓名', '部门', '学习时长 (秒)', '报名课程', '完成课程', '参加考试', '通过考试', '证书', '最近登录'];

function personCells(row: CensusRow): Cell[] {
  return [
    row.userId,
    row.username,
    row.nickName,
    row.deptName,
    row.studySeconds,
    row.coursesEnrolled,
    row.coursesCompleted,
    row.examsAttempted,
    row.examsPassed,
    row.certificates,
    row.lastLoginAt,
  ];
}

function rowOf(row: CensusRowData): CensusRow {
  return {
    userId: row.id,
    username: row.username,
    nickName: row.nick_name,
    deptId: row.dept_id,
    deptName: row.dept_name,
    studySeconds: Number(row.study_seconds ?? 0),
    coursesEnrolled: Number(row.courses_enrolled),
    coursesCompleted: Number(row.courses_completed),
    examsAttempted: Number(row.exams_attempted),
    examsPassed: Number(row.exams_passed),
    certificates: Number(row.certificates),
    lastLoginAt: row.last_login_at === null ? null : formatDateTime(Number(row.last_login_at)),
  };
}

async function workbookOf(sheets: readonly { name: string; headers: readonly string[]; rows: readonly Cell[][] }[]): Promise<Buffer> {
  const ExcelJS = await loadExcelJs();
  const workbook = new ExcelJS.Workbook();
  for (const { name, headers, rows } of sheets) {
    const worksheet = workbook.addWorksheet(name);
    worksheet.columns = headers.map((header) => ({ header, width: Math.max(12, header.length * 2 + 4) }));
    worksheet.getRow(1).font = { bold: true };
    for (const row of rows) worksheet.addRow(row.map(neutraliseCell));
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
