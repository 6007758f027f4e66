import { ENROLLED_STATUSES } from '@cloud-classroom/shared/applicants';
import type { COURSE_SORT_FIELDS, Course, CourseCreate, CourseStatus } from '@cloud-classroom/shared/courses';
import { formatDateTime } from '@cloud-classroom/shared/display';
import type { Page, SortOrder } from '@cloud-classroom/shared/http';
import type { Kysely } from 'kysely';
import { changed, created } from '../../db/audit-columns.js';
import { contains } from '../../db/list-filters.js';
import { paginate, type Ordering } from '../../db/paginate.js';
import type { Database } from '../../db/schema.js';

/** An applicant turned down holds nothing; every other state is an enrolment a deletion would lose. */
export const REJECTED_STATUS = 'rejected';

export type CourseFilter = {
  q?: string | undefined;
  /** Only courses filed under one of these categories. */
  categoryIds?: readonly number[] | undefined;
  status?: CourseStatus | undefined;
  ids?: readonly number[] | undefined;
};

type CourseSortField = (typeof COURSE_SORT_FIELDS)[number];

/** Newest first unless asked otherwise. */
const ORDERING: Ordering<CourseSortField> = {
  sortable: {
    id: 'c.id',
    title: 'c.title',
    status: 'c.status',
    required: 'c.required',
    createTime: 'c.create_time',
    updateTime: 'c.update_time',
  },
  tiebreak: [['c.id', 'desc']],
};

function filtered(db: Kysely<Database>, filter: CourseFilter) {
  let query = db.selectFrom('edu_course as c');
  if (filter.q) query = query.where(contains(['c.title', 'c.summary'], filter.q));
  if (filter.categoryIds) query = query.where('c.category_id', 'in', filter.categoryIds.length > 0 ? filter.categoryIds : [-1]);
  if (filter.status) query = query.where('c.status', '=', filter.status);
  if (filter.ids) query = query.where('c.id', 'in', filter.ids.length > 0 ? filter.ids : [-1]);
  return query;
}

/** The matching courses with their category's and owner's names and their counts, all in one statement. */
export async function findCourses(db: Kysely<Database>, filter: CourseFilter, page: { page?: number; size?: number; sort?: readonly SortOrder[] } = {}): Promise<Page<Course>> {
  const { content, totalElements } = await paginate(
    filtered(db, filter),
    (query) =>
      query
        .leftJoin('edu_category as cat', 'cat.id', 'c.category_id')
        .leftJoin('sys_user as owner', 'owner.id', 'c.owner_id')
        .selectAll('c')
        .select(['cat.name as category_name', 'owner.nick_name as owner_name'])
        .select((eb) => [
          eb.selectFrom('edu_chapter as ch').select((count) => count.fn.countAll().as('n')).whereRef('ch.course_id', '=', 'c.id').as('chapter_count'),
          eb.selectFrom('edu_lesson as l').select((count) => count.fn.countAll().as('n')).whereRef('l.course_id', '=', 'c.id').as('lesson_count'),
          eb.selectFrom('edu_term as t').select((count) => count.fn.countAll().as('n')).whereRef('t.course_id', '=', 'c.id').as('term_count'),
        ]),
    ORDERING,
    page,
  );
  return {
    totalElements,
    content: content.map((row) => ({
      id: row.id,
      title: row.title,
      categoryId: row.category_id,
      categoryName: row.category_name,
      // Written only from COURSE_STATUSES.
      status: row.status as CourseStatus,
      required: row.required === 1,
      cover: row.cover_media_id,
      summary: row.summary,
      description: row.description,
      ownerId: row.owner_id,
      ownerName: row.owner_name,
      maxPlaybackRate: Number(row.max_playback_rate),
      allowSkip: row.allow_skip === 1,
      chapterCount: Number(row.chapter_count),
      lessonCount: Number(row.lesson_count),
      termCount: Number(row.term_count),
      createBy: row.create_by,
      updateBy: row.update_by,
      createTime: formatDateTime(row.create_time),
      updateTime: formatDateTime(row.update_time),
    })),
  };
}

export async function findCourse(db: Kysely<Database>, id: number): Promise<Course | undefined> {
  return (await findCourses(db, { ids: [id] })).content[0];
}

export type CourseHead = { id: number; title: string; status: string };

export async function findCourseHeads(db: Kysely<Database>, ids: readonly number[]): Promise<Map<number, CourseHead>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('edu_course').select(['id', 'title', 'status']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, row]));
}

/** The sanitised course as its columns take it. */
export type CourseValues = Omit<CourseCreate, 'description'> & { description: string };

function columnsOf(course: CourseValues) {
  return {
    title: course.title,
    category_id: course.categoryId,
    status: course.status,
    required: course.required ? 1 : 0,
    cover_media_id: course.cover,
    summary: course.summary,
    description: course.description,
    max_playback_rate: course.maxPlaybackRate,
    allow_skip: course.allowSkip ? 1 : 0,
  } as const;
}

export async function insertCourse(db: Kysely<Database>, course: CourseValues, ownerId: number, by: string, now: number): Promise<number> {
  const { id } = await db
    .insertInto('edu_course')
    .values({ ...columnsOf(course), owner_id: ownerId, ...created(by, now) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateCourse(db: Kysely<Database>, id: number, course: CourseValues, by: string, now: number): Promise<void> {
  await db
    .updateTable('edu_course')
    .set({ ...columnsOf(course), ...changed(by, now) })
    .where('id', '=', id)
    .execute();
}

/** How many applicants of each course's terms are not rejected; courses with none are absent. */
export async function countCourseEnrolments(db: Kysely<Database>, courseIds: readonly number[]): Promise<Map<number, number>> {
  if (courseIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('edu_applicant as a')
    .innerJoin('edu_term as t', 't.id', 'a.term_id')
    .select((eb) => ['t.course_id', eb.fn.countAll().as('n')])
    .where('t.course_id', 'in', courseIds)
    .where('a.status', '<>', REJECTED_STATUS)
    .groupBy('t.course_id')
    .execute();
  return new Map(rows.map((row) => [row.course_id, Number(row.n)]));
}

/** Deletes the courses with their terms (and the terms' applicants), chapters and lessons; media stay. */
export async function deleteCourses(db: Kysely<Database>, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  const terms = db.selectFrom('edu_term').select('id').where('course_id', 'in', ids);
  await db.deleteFrom('edu_applicant').where('term_id', 'in', terms).execute();
  await db.deleteFrom('edu_term').where('course_id', 'in', ids).execute();
  await db.deleteFrom('edu_lesson').where('course_id', 'in', ids).execute();
  await db.deleteFrom('edu_chapter').where('course_id', 'in', ids).execute();
  await db.deleteFrom('edu_course').where('id', 'in', ids).execute();
}

/** Those of the media ids that a lesson or a course cover uses. */
export async function findUsedMedia(db: Kysely<Database>, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('edu_lesson')
    .select('media_id as id')
    .where('media_id', 'in', ids)
    .union(db.selectFrom('edu_course').select('cover_media_id as id').where('cover_media_id', 'in', ids))
    .execute();
  return rows.flatMap((row) => (row.id === null ? [] : [row.id]));
}

/**
 * Whether the media is a published course's cover, or belongs to a lesson the user may study: a
 * free-preview lesson of a published course, or any lesson of a course they are enrolled in.
 */
export async function isMediaReadableBy(db: Kysely<Database>, userId: number, mediaId: number): Promise<boolean> {
  const row = await db
    .selectNoFrom((eb) =>
      eb
        .or([
          eb.exists(eb.selectFrom('edu_course as c').select('c.id').where('c.cover_media_id', '=', mediaId).where('c.status', '=', 'published')),
          eb.exists(
            eb
              .selectFrom('edu_lesson as l')
              .innerJoin('edu_course as c', 'c.id', 'l.course_id')
              .select('l.id')
              .where('l.media_id', '=', mediaId)
              .where((lesson) =>
                lesson.or([
                  lesson.and([lesson('c.status', '=', 'published'), lesson('l.preview', '=', 1)]),
                  lesson.exists(
                    lesson
                      .selectFrom('edu_applicant as a')
                      .innerJoin('edu_term as t', 't.id', 'a.term_id')
                      .select('a.id')
                      .whereRef('t.course_id', '=', 'c.id')
                      .where('a.user_id', '=', userId)
                      .where('a.status', 'in', ENROLLED_STATUSES),
                  ),
                ]),
              ),
          ),
        ])
        .as('readable'),
    )
    .executeTakeFirstOrThrow();
  // SQLite answers 0/1, PostgreSQL a boolean.
  return Boolean(row.readable);
}
