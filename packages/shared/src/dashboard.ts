import { z } from 'zod';

// The back office's home (`/dashboard`): a training manager's figures in one answer, every one of
// them counted over the people within the caller's data scope. Days are calendar days
// (`yyyy-MM-dd`) in the server's time zone, as the progress module files study time; a week starts
// on Monday.

export const DASHBOARD_MIN_DAYS = 7;
export const DASHBOARD_MAX_DAYS = 90;
/** An exam closed, or with an attempt submitted, this many days back is a "recent" one. */
export const RECENT_EXAM_DAYS = 30;
/** At most this many recent exams, open exams and overdue groups are listed (the totals count them all). */
export const DASHBOARD_LIST_LIMIT = 8;

/** `GET api/dashboard/training`: `days`, how far back the per-day series go (today last). */
export const trainingDashboardQuerySchema = z.object({
  days: z.coerce.number().int().min(DASHBOARD_MIN_DAYS).max(DASHBOARD_MAX_DAYS).default(30),
});
export type TrainingDashboardQuery = z.output<typeof trainingDashboardQuerySchema>;

const count = z.number().int();

export const dashboardDaySchema = z.object({
  date: z.string(),
  /** Study time filed that day (`edu_study_day`). */
  studySeconds: count,
  /** People with study time that day. */
  learners: count,
  /** Enrolments made that day (any source, any status since). */
  enrolments: count,
  /** Enrolments completed that day. */
  completions: count,
});
export type DashboardDay = z.infer<typeof dashboardDaySchema>;

export const dashboardOpenExamSchema = z.object({
  examId: count,
  title: z.string(),
  /** `yyyy-MM-dd HH:mm:ss`, or null when it never closes. */
  closeAt: z.string().nullable(),
  assigned: count,
  inProgress: count,
});
export type DashboardOpenExam = z.infer<typeof dashboardOpenExamSchema>;

export const dashboardRecentExamSchema = z.object({
  examId: count,
  title: z.string(),
  /** People whose counted attempt (by the exam's rule, among their graded ones) is there. */
  counted: count,
  passed: count,
  /** passed / counted, 0–1 to four places (an exam with none counted is not listed). */
  passRate: z.number(),
});
export type DashboardRecentExam = z.infer<typeof dashboardRecentExamSchema>;

export const dashboardOverdueCourseSchema = z.object({ courseId: count, title: z.string(), count });
export const dashboardOverdueExamSchema = z.object({ examId: count, title: z.string(), count });

export const trainingDashboardSchema = z.object({
  today: z.string(),
  /** The Monday the week's figures start on. */
  weekStart: z.string(),
  /**
   * People who studied (study time filed), saved lesson progress or started or submitted an
   * attempt today, and since Monday.
   */
  activeToday: count,
  activeThisWeek: count,
  days: z.array(dashboardDaySchema),
  enrolments: z.object({
    /** Waiting for approval. */
    applied: count,
    /** Approved or in progress. */
    active: count,
    completed: count,
    /** Within the `days` shown. */
    enrolledInPeriod: count,
    completedInPeriod: count,
  }),
  /** Published exams whose own window is open now. */
  openExams: z.object({ total: count, inProgress: count, exams: z.array(dashboardOpenExamSchema) }),
  /** Exams closed, or with an attempt submitted, in the last RECENT_EXAM_DAYS days, the latest first. */
  recentExams: z.array(dashboardRecentExamSchema),
  certificates: z.object({
    /** Issued within the `days` shown and not revoked. */
    issuedInPeriod: count,
    /** Issued since Monday and not revoked. */
    issuedThisWeek: count,
    /** Not revoked, not superseded, not expired. */
    valid: count,
  }),
  /**
   * Enrolments past their due date neither completed nor rejected (the applicants list's overdue
   * filter), and exam assignments past their due date whose person has passed no attempt.
   */
  overdue: z.object({
    enrolments: count,
    examAssignments: count,
    courses: z.array(dashboardOverdueCourseSchema),
    exams: z.array(dashboardOverdueExamSchema),
  }),
});
export type TrainingDashboard = z.infer<typeof trainingDashboardSchema>;
