import { z } from 'zod';
import { daysBetween } from './calendar-day.js';
import { idTextSchema, pageQuerySchema, sortableBy } from './http.js';

// People statistics ("census", issue 15): one person's record (study time per day, progress per
// course, exam attempts, certificates, logins) and the list of people with the same figures
// rolled up. Days are calendar days `yyyy-MM-dd` in the organisation's zone (the server's `TZ`),
// the zone study time is bucketed in.


/** A calendar day, `yyyy-MM-dd`, that exists (no 2026-02-30). */
export const censusDaySchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "expected 'yyyy-MM-dd'")
  .refine((day) => {
    const date = new Date(`${day}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day;
  }, 'is not a calendar day');

/** The longest range of days the person's chart and the lists take at once (about ten years). */
export const MAX_CENSUS_DAYS = 3700;

const rangeFields = {
  /** First day counted (inclusive); the list counts from the beginning without it, the person's record from 29 days before `to`. */
  from: censusDaySchema.optional(),
  /** Last day counted (inclusive); by default today. */
  to: censusDaySchema.optional(),
};

function checkRange(range: { from?: string | undefined; to?: string | undefined }, ctx: z.RefinementCtx): void {
  if (range.from === undefined || range.to === undefined) return;
  if (range.from > range.to) ctx.addIssue({ code: 'custom', path: ['to'], message: 'is before from' });
  else if (daysBetween(range.from, range.to) > MAX_CENSUS_DAYS) ctx.addIssue({ code: 'custom', path: ['to'], message: `at most ${MAX_CENSUS_DAYS} days from from` });
}

export const CENSUS_SORT_FIELDS = [
  'id',
  'username',
  'nickName',
  'studySeconds',
  'coursesEnrolled',
  'coursesCompleted',
  'examsAttempted',
  'examsPassed',
  'certificates',
  'lastLoginAt',
] as const;
export type CensusSortField = (typeof CENSUS_SORT_FIELDS)[number];

/** `GET api/census/users` and its download. */
export const censusListQuerySchema = pageQuerySchema
  .extend({
    sort: sortableBy(CENSUS_SORT_FIELDS),
    /** People of this department and the departments below it. */
    deptId: idTextSchema.optional(),
    /** People enrolled in this course; the course and exam figures are then of this course alone. */
    courseId: idTextSchema.optional(),
    /** In the username or the name. */
    blurry: z.string().trim().max(100).optional(),
    ...rangeFields,
  })
  .superRefine(checkRange);
export type CensusListQuery = z.output<typeof censusListQuerySchema>;

/** `GET api/census/users/{id}` and its download. */
export const censusUserQuerySchema = z.object(rangeFields).superRefine(checkRange);
export type CensusUserQuery = z.output<typeof censusUserQuerySchema>;

export const censusIdParamsSchema = z.object({ id: idTextSchema });

/** One person with their figures rolled up: a row of the census list. */
export const censusRowSchema = z.object({
  userId: z.number().int(),
  username: z.string(),
  nickName: z.string(),
  deptId: z.number().int().nullable(),
  deptName: z.string().nullable(),
  /** Study time in the asked days. */
  studySeconds: z.number().int(),
  /** Courses they hold a place in (approved, in progress or completed). */
  coursesEnrolled: z.number().int(),
  coursesCompleted: z.number().int(),
  /** Exams with an attempt started in the asked days. */
  examsAttempted: z.number().int(),
  /** Exams with a graded, passing attempt started in the asked days. */
  examsPassed: z.number().int(),
  /** Certificates held: neither revoked nor re-issued. */
  certificates: z.number().int(),
  lastLoginAt: z.string().nullable(),
});
export type CensusRow = z.infer<typeof censusRowSchema>;

export const censusCourseSchema = z.object({
  courseId: z.number().int(),
  title: z.string(),
  /** 'approved' | 'in_progress' | 'completed': the furthest of their enrolments in the course. */
  status: z.string(),
  enrolledAt: z.string(),
  completedAt: z.string().nullable(),
  /** Over the course's required lessons, as the learner's own page shows it. */
  percent: z.number().int(),
  completedLessons: z.number().int(),
  requiredLessons: z.number().int(),
});
export type CensusCourse = z.infer<typeof censusCourseSchema>;

export const censusAttemptSchema = z.object({
  attemptId: z.number().int(),
  examId: z.number().int(),
  examTitle: z.string(),
  number: z.number().int(),
  /** 'in_progress' | 'marking' | 'graded'. */
  state: z.string(),
  startedAt: z.string(),
  submittedAt: z.string().nullable(),
  score: z.number().nullable(),
  totalScore: z.number(),
  passed: z.boolean().nullable(),
});
export type CensusAttempt = z.infer<typeof censusAttemptSchema>;

export const censusCertificateSchema = z.object({
  id: z.number().int(),
  number: z.string(),
  title: z.string(),
  issuedAt: z.string(),
  /** The last day it is valid (yyyy-MM-dd, the organisation's calendar), as the certificate prints it; null when it never expires. */
  expiresOn: z.string().nullable(),
  /** 'valid' | 'expired' | 'revoked' | 'superseded', now. */
  status: z.string(),
});
export type CensusCertificate = z.infer<typeof censusCertificateSchema>;

export const censusLoginSchema = z.object({
  at: z.string(),
  ip: z.string(),
  browser: z.string(),
});
export type CensusLogin = z.infer<typeof censusLoginSchema>;

/** How many logins the record lists, newest first. */
export const CENSUS_LOGINS_SHOWN = 100;

/** `GET api/census/users/{id}`: one person's record. */
export const censusUserSchema = z.object({
  person: censusRowSchema,
  from: z.string(),
  to: z.string(),
  /** Every day from `from` to `to`, days without study as 0. */
  days: z.array(z.object({ day: z.string(), seconds: z.number().int() })),
  courses: z.array(censusCourseSchema),
  attempts: z.array(censusAttemptSchema),
  certificates: z.array(censusCertificateSchema),
  /** The newest CENSUS_LOGINS_SHOWN. */
  logins: z.array(censusLoginSchema),
});
export type CensusUser = z.infer<typeof censusUserSchema>;
