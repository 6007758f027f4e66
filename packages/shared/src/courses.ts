import { z } from 'zod';
import { idSchema, idTextSchema, pageQuerySchema, REQUIRED, sortableBy, wireTimeSchema } from './http.js';
import { mediaSchema, type MediaKind } from './media.js';

// The course catalogue (DESIGN §10): categories (a tree) → courses → chapters → lessons, and the
// terms a course runs in. The files lessons and covers use are media (media.ts).

/**
 * The largest id an `integer` column holds (PostgreSQL's): a larger one sent in would make the
 * query fail (a 500) instead of finding nothing.
 */
/** An id in a path or a query string. */
const auditFields = {
  createBy: z.string().nullable(),
  updateBy: z.string().nullable(),
  createTime: z.string(),
  updateTime: z.string(),
};
const title = (max: number) => z.string(REQUIRED).trim().min(1, 'is required').max(max);

// ---- Categories ---------------------------------------------------------------------------------

export const categorySchema = z.object({
  id: z.number().int(),
  /** null for a top-level category. */
  pid: z.number().int().nullable(),
  name: z.string(),
  sort: z.number().int(),
  subCount: z.number().int(),
  /** How many courses are filed directly under it. */
  courseCount: z.number().int(),
  ...auditFields,
});
export type Category = z.infer<typeof categorySchema>;

/** `GET api/categories`: the whole tree (a training department has tens of categories, not thousands). */
export const categoryTreeSchema = categorySchema.extend({
  get children() {
    return z.array(categoryTreeSchema).optional();
  },
});
export type CategoryTree = z.infer<typeof categoryTreeSchema>;

const categoryFields = {
  name: title(50),
  /** 0, null or absent: a top-level category. */
  pid: z
    .number()
    .int()
    .nonnegative()
    .nullish()
    .transform((pid) => (pid === 0 || pid === undefined ? null : pid)),
  sort: z.number().int().min(0).max(999_999).default(999),
};
export const categoryCreateSchema = z.object(categoryFields);
export type CategoryCreate = z.output<typeof categoryCreateSchema>;
export const categoryUpdateSchema = z.object({ id: idSchema, ...categoryFields });
export type CategoryUpdate = z.output<typeof categoryUpdateSchema>;

export const idsSchema = z.array(idSchema).min(1, 'list at least one id').max(1000);

/** `{id}` in the path of `api/courses/{id}`, `api/courses/{id}/outline`, `api/lessons/{id}`. */
export const idParamsSchema = z.object({ id: idTextSchema });

/** What a create of this domain answers (201): the new row's id, for the page to go on with it. */
export const createdSchema = z.object({ id: z.number().int() });
export type Created = z.infer<typeof createdSchema>;

// ---- Courses ------------------------------------------------------------------------------------

export const COURSE_STATUSES = ['draft', 'published', 'archived'] as const;
export type CourseStatus = (typeof COURSE_STATUSES)[number];

/** The fastest playback a course may allow, and the rate a course allows unless staff choose. */
export const MAX_PLAYBACK_RATE = 4;
export const DEFAULT_PLAYBACK_RATE = 2;

/** Longest stored rich text (a lesson's text or a course's description), in characters of HTML. */
export const RICH_TEXT_MAX_LENGTH = 200_000;

export const courseSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  categoryId: z.number().int().nullable(),
  categoryName: z.string().nullable(),
  status: z.enum(COURSE_STATUSES),
  required: z.boolean(),
  /** The cover image: a media id, shown from `api/media/{cover}/content`. */
  cover: z.number().int().nullable(),
  summary: z.string(),
  /** Sanitised HTML. */
  description: z.string(),
  ownerId: z.number().int().nullable(),
  ownerName: z.string().nullable(),
  maxPlaybackRate: z.number(),
  /** Whether learners may seek past what they have watched. */
  allowSkip: z.boolean(),
  chapterCount: z.number().int(),
  lessonCount: z.number().int(),
  termCount: z.number().int(),
  ...auditFields,
});
export type Course = z.infer<typeof courseSchema>;

export const COURSE_SORT_FIELDS = ['id', 'title', 'status', 'required', 'createTime', 'updateTime'] as const;

/** `GET api/courses` and its download. */
export const courseQuerySchema = pageQuerySchema.extend({
  sort: sortableBy(COURSE_SORT_FIELDS),
  /** Part of the title or the summary. */
  q: z.string().trim().max(100).optional(),
  /** Courses of this category and of every category below it. */
  categoryId: idTextSchema.optional(),
  status: z.enum(COURSE_STATUSES).optional(),
});
export type CourseQuery = z.output<typeof courseQuerySchema>;

const courseFields = {
  title: title(100),
  categoryId: idSchema.nullish().transform((id) => id ?? null),
  status: z.enum(COURSE_STATUSES).default('draft'),
  required: z.boolean().default(false),
  cover: idSchema.nullish().transform((id) => id ?? null),
  summary: z.string().trim().max(500).default(''),
  description: z.string().max(RICH_TEXT_MAX_LENGTH).default(''),
  maxPlaybackRate: z.number().min(1).max(MAX_PLAYBACK_RATE).default(DEFAULT_PLAYBACK_RATE),
  allowSkip: z.boolean().default(false),
};
export const courseCreateSchema = z.object(courseFields);
export type CourseCreate = z.output<typeof courseCreateSchema>;
export const courseUpdateSchema = z.object({ id: idSchema, ...courseFields });
export type CourseUpdate = z.output<typeof courseUpdateSchema>;

// ---- Terms --------------------------------------------------------------------------------------

export const ENROL_MODES = ['open', 'approval', 'assigned'] as const;
export type EnrolMode = (typeof ENROL_MODES)[number];

export const termSchema = z.object({
  id: z.number().int(),
  courseId: z.number().int(),
  name: z.string(),
  startAt: z.string(),
  endAt: z.string(),
  /** null: no limit. */
  capacity: z.number().int().nullable(),
  enrolMode: z.enum(ENROL_MODES),
  /** People enrolled (approved, studying or completed). */
  enrolled: z.number().int(),
  ...auditFields,
});
export type Term = z.infer<typeof termSchema>;

export const TERM_SORT_FIELDS = ['id', 'name', 'startAt', 'endAt', 'createTime'] as const;

/** `GET api/terms`: the terms of one course. */
export const termQuerySchema = pageQuerySchema.extend({
  sort: sortableBy(TERM_SORT_FIELDS),
  courseId: idTextSchema,
  q: z.string().trim().max(100).optional(),
});
export type TermQuery = z.output<typeof termQuerySchema>;

const termFields = {
  courseId: idSchema,
  name: title(100),
  startAt: wireTimeSchema,
  endAt: wireTimeSchema,
  capacity: z.number().int().min(1).max(1_000_000).nullish().transform((capacity) => capacity ?? null),
  enrolMode: z.enum(ENROL_MODES).default('open'),
};
const endsAfterStart = <T extends { startAt: number; endAt: number }>(term: T, ctx: z.RefinementCtx) => {
  if (term.endAt <= term.startAt) ctx.addIssue({ code: 'custom', path: ['endAt'], message: 'must be after the start' });
};
export const termCreateSchema = z.object(termFields).superRefine(endsAfterStart);
export type TermCreate = z.output<typeof termCreateSchema>;
export const termUpdateSchema = z.object({ id: idSchema, ...termFields }).superRefine(endsAfterStart);
export type TermUpdate = z.output<typeof termUpdateSchema>;
/** What a client sends: the times as the wire writes them (`yyyy-MM-dd HH:mm:ss`). */
export type TermCreateBody = z.input<typeof termCreateSchema>;
export type TermUpdateBody = z.input<typeof termUpdateSchema>;

// ---- Chapters and lessons -----------------------------------------------------------------------

export const LESSON_TYPES = ['video', 'document', 'text'] as const;
export type LessonType = (typeof LESSON_TYPES)[number];

/** Which kind of media each lesson type plays. */
export const LESSON_MEDIA_KIND = { video: 'video', document: 'document' } as const satisfies Partial<Record<LessonType, MediaKind>>;

export const DEFAULT_COMPLETION_PERCENT = 90;

export const chapterSchema = z.object({
  id: z.number().int(),
  courseId: z.number().int(),
  title: z.string(),
  sort: z.number().int(),
});
export type Chapter = z.infer<typeof chapterSchema>;

export const chapterCreateSchema = z.object({ courseId: idSchema, title: title(100) });
export type ChapterCreate = z.output<typeof chapterCreateSchema>;
export const chapterUpdateSchema = z.object({ id: idSchema, title: title(100) });
export type ChapterUpdate = z.output<typeof chapterUpdateSchema>;

/** One lesson as the outline lists it (DESIGN §10, fixed). */
export const outlineLessonSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  type: z.enum(LESSON_TYPES),
  durationSeconds: z.number().nullable(),
  pages: z.number().int().nullable(),
  completionPercent: z.number().int(),
  preview: z.boolean(),
});
export type OutlineLesson = z.infer<typeof outlineLessonSchema>;

/** `GET api/courses/{id}/outline` (DESIGN §10, fixed). */
export const outlineSchema = z.array(
  z.object({ id: z.number().int(), title: z.string(), sort: z.number().int(), lessons: z.array(outlineLessonSchema) }),
);
export type Outline = z.infer<typeof outlineSchema>;

/**
 * `PUT api/courses/{id}/outline`: the new order of the course's chapters and of the lessons in
 * each, as drag and drop leaves it (a lesson may move to another chapter). It must name every
 * chapter and lesson of the course exactly once.
 */
export const outlineOrderSchema = z.object({
  chapters: z
    .array(z.object({ id: idSchema, lessons: z.array(idSchema).max(1000) }))
    .max(1000),
});
export type OutlineOrder = z.output<typeof outlineOrderSchema>;

/** `GET api/lessons/{id}`: everything the lesson editor shows. */
export const lessonSchema = outlineLessonSchema.extend({
  courseId: z.number().int(),
  chapterId: z.number().int(),
  sort: z.number().int(),
  /** The video or PDF it plays; null for a text lesson. */
  media: mediaSchema.nullable(),
  /** Sanitised HTML: the text of a text lesson, notes under a video or document. */
  content: z.string(),
  /** Counts towards the course's completion. */
  required: z.boolean(),
  ...auditFields,
});
export type Lesson = z.infer<typeof lessonSchema>;

const lessonFields = {
  chapterId: idSchema,
  title: title(100),
  type: z.enum(LESSON_TYPES),
  mediaId: idSchema.nullish().transform((id) => id ?? null),
  content: z.string().max(RICH_TEXT_MAX_LENGTH).default(''),
  completionPercent: z.number().int().min(1).max(100).default(DEFAULT_COMPLETION_PERCENT),
  preview: z.boolean().default(false),
  /** Counts towards the course's completion (an optional lesson does not). */
  required: z.boolean().default(true),
};
const mediaMatchesType = <T extends { type: LessonType; mediaId: number | null }>(lesson: T, ctx: z.RefinementCtx) => {
  if (lesson.type !== 'text' && lesson.mediaId === null) {
    ctx.addIssue({ code: 'custom', path: ['mediaId'], message: `a ${lesson.type} lesson needs its ${lesson.type === 'video' ? 'video' : 'PDF'}` });
  }
};
export const lessonCreateSchema = z.object(lessonFields).superRefine(mediaMatchesType);
export type LessonCreate = z.output<typeof lessonCreateSchema>;
export const lessonUpdateSchema = z.object({ id: idSchema, ...lessonFields }).superRefine(mediaMatchesType);
export type LessonUpdate = z.output<typeof lessonUpdateSchema>;

// ---- The learner catalogue ----------------------------------------------------------------------

/** `GET api/site/courses`: published courses only, newest first; any signed-in person. */
export const siteCourseQuerySchema = pageQuerySchema.extend({
  q: z.string().trim().max(100).optional(),
  /** Courses of this category and of every category below it. */
  categoryId: idTextSchema.optional(),
});
export type SiteCourseQuery = z.output<typeof siteCourseQuerySchema>;

/** A course as the catalogue shows it: what a learner needs to choose, nothing of its staff. */
export const siteCourseSchema = courseSchema.pick({
  id: true,
  title: true,
  categoryId: true,
  categoryName: true,
  required: true,
  cover: true,
  summary: true,
  chapterCount: true,
  lessonCount: true,
  updateTime: true,
});
export type SiteCourse = z.infer<typeof siteCourseSchema>;

/**
 * `GET api/site/categories`: the categories a learner can browse by, as a tree: those holding a
 * published course, directly or below them, with the published courses counted through the
 * subtree (what `api/site/courses?categoryId=` finds). Nothing of its staff.
 */
export const siteCategorySchema = z.object({
  id: z.number().int(),
  pid: z.number().int().nullable(),
  name: z.string(),
  courseCount: z.number().int(),
  get children() {
    return z.array(siteCategorySchema).optional();
  },
});
export type SiteCategory = z.infer<typeof siteCategorySchema>;
