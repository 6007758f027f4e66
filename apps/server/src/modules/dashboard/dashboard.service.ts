import { countingAttempt, type CountsRule } from '@cloud-classroom/shared/attempt-rules';
import { addDays, dayInZone, mondayOf, startOfDay } from '@cloud-classroom/shared/calendar-day';
import { DASHBOARD_LIST_LIMIT, RECENT_EXAM_DAYS, type DashboardDay, type TrainingDashboard } from '@cloud-classroom/shared/dashboard';
import { formatDateTime } from '@cloud-classroom/shared/display';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import type { AccessService } from '../access/access.service.js';
import type { Principal } from '../auth/session.service.js';
import {
  countActivePeople,
  countAssigneesByExam,
  countAttemptsInProgress,
  countCertificates,
  countEnrolmentsByStatus,
  countOverdueAssignmentsByExam,
  countOverdueEnrolmentsByCourse,
  findEnrolmentMoments,
  findFinishedAttempts,
  findOpenExams,
  findRecentExams,
  studyByDay,
  type FinishedAttemptRow,
  type OverdueGroupRow,
} from './dashboard.repo.js';

export type DashboardOptions = {
  db: Kysely<Database>;
  clock: Clock;
  access: AccessService;
  /** The organisation's zone (config `TZ`): the calendar days study time is filed under. */
  timeZone: string;
};

const DAY_MS = 86_400_000;

const ratio = (value: number) => Math.round(value * 10_000) / 10_000;

/** The largest groups first (then by name), at most DASHBOARD_LIST_LIMIT of them. */
function largestFirst(groups: readonly OverdueGroupRow[]): OverdueGroupRow[] {
  return [...groups].sort((a, b) => b.count - a.count || a.title.localeCompare(b.title, 'zh-CN') || a.id - b.id).slice(0, DASHBOARD_LIST_LIMIT);
}

/**
 * The training figures of the back office's home, for the people within the caller's data scope
 * (a department manager sees their departments' subtrees). Calendar days and the week (from
 * Monday) are the organisation's (config `TZ`), as the progress module files study time.
 */
export class DashboardService {
  constructor(private readonly options: DashboardOptions) {}

  private get db(): Kysely<Database> {
    return this.options.db;
  }

  async training(caller: Principal, days: number): Promise<TrainingDashboard> {
    const scope = await this.options.access.dataScopeOf(caller.userId);
    const now = this.options.clock.now();
    const { timeZone } = this.options;
    const dayOf = (ms: number) => dayInZone(ms, timeZone);
    const today = dayOf(now);
    const firstDay = addDays(today, -(days - 1));
    const weekStart = mondayOf(today);
    const todayMs = startOfDay(today, timeZone);
    const mondayMs = startOfDay(weekStart, timeZone);
    const periodStartMs = startOfDay(firstDay, timeZone);
    const range = Array.from({ length: days }, (_, index) => addDays(firstDay, index));

    const series = new Map<string, DashboardDay>(range.map((day) => [day, { date: day, studySeconds: 0, learners: 0, enrolments: 0, completions: 0 }]));
    for (const row of await studyByDay(this.db, firstDay, today, scope)) {
      const entry = series.get(row.day);
      if (entry !== undefined) Object.assign(entry, { studySeconds: row.seconds, learners: row.learners });
    }
    let enrolledInPeriod = 0;
    let completedInPeriod = 0;
    for (const moment of await findEnrolmentMoments(this.db, periodStartMs, scope)) {
      const made = moment.createdAt >= periodStartMs && moment.createdAt <= now ? series.get(dayOf(moment.createdAt)) : undefined;
      if (made !== undefined) {
        made.enrolments += 1;
        enrolledInPeriod += 1;
      }
      const done = moment.completedAt !== null && moment.completedAt >= periodStartMs && moment.completedAt <= now ? series.get(dayOf(moment.completedAt)) : undefined;
      if (done !== undefined) {
        done.completions += 1;
        completedInPeriod += 1;
      }
    }
    const statuses = await countEnrolmentsByStatus(this.db, scope);
    const status = (name: string) => statuses.get(name) ?? 0;

    const open = await findOpenExams(this.db, now);
    const assigned = await countAssigneesByExam(this.db, open.map((exam) => exam.id), scope);
    const sitting = await countAttemptsInProgress(this.db, scope);

    const overdueCourses = await countOverdueEnrolmentsByCourse(this.db, now, scope);
    const overdueExams = await countOverdueAssignmentsByExam(this.db, now, scope);
    const sum = (groups: readonly OverdueGroupRow[]) => groups.reduce((total, group) => total + group.count, 0);

    return {
      today,
      weekStart,
      activeToday: await countActivePeople(this.db, today, todayMs, scope),
      activeThisWeek: await countActivePeople(this.db, weekStart, mondayMs, scope),
      days: [...series.values()],
      enrolments: {
        applied: status('applied'),
        active: status('approved') + status('in_progress'),
        completed: status('completed'),
        enrolledInPeriod,
        completedInPeriod,
      },
      openExams: {
        total: open.length,
        inProgress: [...sitting.values()].reduce((total, n) => total + n, 0),
        exams: open.slice(0, DASHBOARD_LIST_LIMIT).map((exam) => ({
          examId: exam.id,
          title: exam.title,
          closeAt: exam.closeAt === null ? null : formatDateTime(exam.closeAt),
          assigned: assigned.get(exam.id) ?? 0,
          inProgress: sitting.get(exam.id) ?? 0,
        })),
      },
      recentExams: await this.recentExams(now, scope),
      certificates: await countCertificates(this.db, periodStartMs, mondayMs, now, scope),
      overdue: {
        enrolments: sum(overdueCourses),
        examAssignments: sum(overdueExams),
        courses: largestFirst(overdueCourses).map((group) => ({ courseId: group.id, title: group.title, count: group.count })),
        exams: largestFirst(overdueExams).map((group) => ({ examId: group.id, title: group.title, count: group.count })),
      },
    };
  }

  /**
   * Each recent exam's pass rate: per person the attempt that counts by the exam's rule among their
   * submitted ones, as the exam's report counts; of those graded, the share passed. Exams where
   * nobody within the scope has a graded counted attempt are left out.
   */
  private async recentExams(now: number, scope: readonly number[]): Promise<TrainingDashboard['recentExams']> {
    const exams = (await findRecentExams(this.db, now - RECENT_EXAM_DAYS * DAY_MS, now, scope)).sort((a, b) => b.latest - a.latest || b.id - a.id);
    const attempts = await findFinishedAttempts(this.db, exams.map((exam) => exam.id), scope);
    const byExamAndPerson = new Map<number, Map<number, FinishedAttemptRow[]>>();
    for (const attempt of attempts) {
      const people = byExamAndPerson.get(attempt.examId) ?? new Map<number, FinishedAttemptRow[]>();
      byExamAndPerson.set(attempt.examId, people);
      people.set(attempt.userId, [...(people.get(attempt.userId) ?? []), attempt]);
    }
    const figures: TrainingDashboard['recentExams'] = [];
    for (const exam of exams) {
      const counted = [...(byExamAndPerson.get(exam.id)?.values() ?? [])]
        .map((mine) => countingAttempt(mine, exam.counts as CountsRule))
        .filter((attempt): attempt is FinishedAttemptRow => attempt !== undefined && attempt.state === 'graded' && attempt.score !== null);
      if (counted.length === 0) continue;
      const passed = counted.filter((attempt) => attempt.passed === true).length;
      figures.push({ examId: exam.id, title: exam.title, counted: counted.length, passed, passRate: ratio(passed / counted.length) });
      if (figures.length === DASHBOARD_LIST_LIMIT) break;
    }
    return figures;
  }
}
