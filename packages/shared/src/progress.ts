import { z } from 'zod';
import { APPLICANT_SOURCES, APPLICANT_STATUSES } from './applicants.js';
import { ENROL_MODES, LESSON_TYPES, outlineLessonSchema, siteCourseSchema } from './courses.js';
import { idSchema, REQUIRED } from './http.js';
import { MAX_INTERVALS_PER_REPORT } from './progress-rules.js';

// The learner's side (DESIGN §10, `api/site/...`): a course's details with my enrolment, my
// courses, a lesson to study and the progress reports its player sends. Who "my" is comes from
// the session, never from the request. The rules the numbers follow are in progress-rules.ts.


/** My progress in one lesson. */
export const lessonProgressSchema = z.object({
  /** Seconds of the video covered (merged intervals); for a document or text, 0. */
  coveredSeconds: z.number(),
  /** Covered duration (or pages read) over the whole, 0–100, rounded down. */
  percent: z.number().int(),
  completed: z.boolean(),
  /** Where the player resumes, in seconds (a video) or the page (a document). */
  position: z.number(),
  /** Pages counted as read (documents). */
  pagesRead: z.array(z.number().int()),
});
export type LessonProgress = z.infer<typeof lessonProgressSchema>;

/** My enrolment in one of the course's terms. */
export const myEnrolmentSchema = z.object({
  id: z.number().int(),
  termId: z.number().int(),
  status: z.enum(APPLICANT_STATUSES),
  source: z.enum(APPLICANT_SOURCES),
  dueAt: z.string().nullable(),
  overdue: z.boolean(),
  /** Why staff rejected it. */
  reason: z.string().nullable(),
});
export type MyEnrolment = z.infer<typeof myEnrolmentSchema>;

/** The course's total: required lessons completed over required lessons. */
export const courseProgressSchema = z.object({
  percent: z.number().int(),
  completedLessons: z.number().int(),
  requiredLessons: z.number().int(),
  completed: z.boolean(),
  /** The lesson to continue with: the first required one not completed, else the first. */
  nextLessonId: z.number().int().nullable(),
});
export type CourseProgress = z.infer<typeof courseProgressSchema>;

export const siteTermSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  startAt: z.string(),
  endAt: z.string(),
  capacity: z.number().int().nullable(),
  /** null: no limit. */
  seatsLeft: z.number().int().nullable(),
  enrolMode: z.enum(ENROL_MODES),
});
export type SiteTerm = z.infer<typeof siteTermSchema>;

/** `GET api/site/courses/{id}`: a published course, its outline with my progress per lesson, its terms, my enrolment. */
export const siteCourseDetailSchema = siteCourseSchema.extend({
  /** Sanitised HTML. */
  description: z.string(),
  maxPlaybackRate: z.number(),
  allowSkip: z.boolean(),
  outline: z.array(
    z.object({
      id: z.number().int(),
      title: z.string(),
      lessons: z.array(
        outlineLessonSchema.extend({
          required: z.boolean(),
          /** Mine; null when I have not opened it. */
          progress: lessonProgressSchema.pick({ percent: true, completed: true }).nullable(),
        }),
      ),
    }),
  ),
  terms: z.array(siteTermSchema),
  /** null: not enrolled and not applied. */
  enrolment: myEnrolmentSchema.nullable(),
  /** Whether I may study every lesson (enrolled), or only the free-preview ones. */
  mayStudy: z.boolean(),
  progress: courseProgressSchema,
});
export type SiteCourseDetail = z.infer<typeof siteCourseDetailSchema>;

/** `POST api/site/courses/{id}/apply`. */
export const applySchema = z.object({ termId: idSchema });
export type Apply = z.output<typeof applySchema>;
/** What applying answers (201): open terms approve at once, approval terms wait. */
export const appliedSchema = z.object({ id: z.number().int(), status: z.enum(APPLICANT_STATUSES) });
export type Applied = z.infer<typeof appliedSchema>;

/** `GET api/site/my/courses`: the courses I applied to, was enrolled in or assigned, newest activity first. */
export const myCourseSchema = z.object({
  applicantId: z.number().int(),
  courseId: z.number().int(),
  title: z.string(),
  cover: z.number().int().nullable(),
  required: z.boolean(),
  termId: z.number().int(),
  termName: z.string(),
  status: z.enum(APPLICANT_STATUSES),
  source: z.enum(APPLICANT_SOURCES),
  dueAt: z.string().nullable(),
  overdue: z.boolean(),
  reason: z.string().nullable(),
  progress: courseProgressSchema,
  /** When I last studied it; null: never. */
  lastStudiedAt: z.string().nullable(),
});
export type MyCourse = z.infer<typeof myCourseSchema>;
export const myCoursesSchema = z.array(myCourseSchema);

/** `GET api/site/my/study`: my study time, per day for the last `days` days (today last). */
export const myStudyQuerySchema = z.object({ days: z.coerce.number().int().min(1).max(366).default(14) });
export const myStudySchema = z.object({
  todaySeconds: z.number().int(),
  /** Monday to today. */
  weekSeconds: z.number().int(),
  totalSeconds: z.number().int(),
  days: z.array(z.object({ date: z.string(), seconds: z.number().int() })),
});
export type MyStudy = z.infer<typeof myStudySchema>;

/** `GET api/site/lessons/{id}`: a lesson to study, with where to resume and my progress. */
export const siteLessonSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  type: z.enum(LESSON_TYPES),
  courseId: z.number().int(),
  courseTitle: z.string(),
  chapterTitle: z.string(),
  /** The video or PDF, played from `api/media/{mediaId}/content`; null for text. */
  mediaId: z.number().int().nullable(),
  durationSeconds: z.number().nullable(),
  pages: z.number().int().nullable(),
  /** Sanitised HTML: the text, or notes under a video or document. */
  content: z.string(),
  completionPercent: z.number().int(),
  preview: z.boolean(),
  required: z.boolean(),
  maxPlaybackRate: z.number(),
  allowSkip: z.boolean(),
  /** The seconds a page must stay open to count (documents and text). */
  pageDwellSeconds: z.number(),
  previousLessonId: z.number().int().nullable(),
  nextLessonId: z.number().int().nullable(),
  progress: lessonProgressSchema,
});
export type SiteLesson = z.infer<typeof siteLessonSchema>;

/** One playback (a page load of the player); a new one takes over study time from the others. */
const sessionIdSchema = z.string(REQUIRED).regex(/^[\w-]{8,64}$/, 'expected 8–64 letters, digits, - or _');
const secondsSchema = z.number().min(0).max(1_000_000);

/**
 * `POST api/site/lessons/{id}/progress`. A video reports the intervals watched since its last
 * report and the playhead; a document or text lesson the page on screen (text is one page).
 */
export const progressReportSchema = z
  .object({
    sessionId: sessionIdSchema,
    intervals: z
      .array(z.tuple([secondsSchema, secondsSchema]).refine(([from, to]) => from <= to, 'an interval ends before it starts'))
      .max(MAX_INTERVALS_PER_REPORT)
      .optional(),
    position: secondsSchema.optional(),
    page: z.number().int().min(1).max(100_000).optional(),
  })
  // One object rather than a union, so that a refusal names the field at fault.
  .superRefine((report, ctx) => {
    if (report.page !== undefined) {
      if (report.intervals !== undefined || report.position !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['page'], message: 'a report has intervals and a position (a video) or a page, not both' });
      }
      return;
    }
    if (report.intervals === undefined) ctx.addIssue({ code: 'custom', path: ['intervals'], message: 'is required (or a page, for a document)' });
    if (report.position === undefined) ctx.addIssue({ code: 'custom', path: ['position'], message: 'is required (or a page, for a document)' });
  })
  .transform(({ sessionId, intervals, position, page }): VideoReport | PageReport =>
    page !== undefined ? { sessionId, page } : { sessionId, intervals: intervals ?? [], position: position ?? 0 },
  );
/** A video's report: the stretches watched since the last one, and the playhead. */
export type VideoReport = { sessionId: string; intervals: [number, number][]; position: number };
/** A document's or text's report: the page on screen. */
export type PageReport = { sessionId: string; page: number };
export type ProgressReport = z.output<typeof progressReportSchema>;

/** What a report answers. */
export const progressResultSchema = lessonProgressSchema.extend({
  /** Seconds of new coverage this report was credited with (0 when the clock allowed none). */
  acceptedSeconds: z.number(),
  /** Another playback of mine has taken over: this one no longer counts study time. */
  superseded: z.boolean(),
});
export type ProgressResult = z.infer<typeof progressResultSchema>;
