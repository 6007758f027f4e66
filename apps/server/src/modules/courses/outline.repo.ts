import type { LessonType } from '@cloud-classroom/shared/courses';
import type { Kysely, Selectable } from 'kysely';
import { changed, created } from '../../db/audit-columns.js';
import type { ChapterTable, Database, LessonTable } from '../../db/schema.js';

// Chapters and lessons: a course's outline.

export type ChapterRow = Selectable<ChapterTable>;
export type LessonRow = Omit<Selectable<LessonTable>, 'type'> & { type: LessonType };

/** A course's chapters by sort (ids break ties). */
export async function findChapters(db: Kysely<Database>, courseId: number): Promise<ChapterRow[]> {
  return db.selectFrom('edu_chapter').selectAll().where('course_id', '=', courseId).orderBy('sort').orderBy('id').execute();
}

export async function findChapter(db: Kysely<Database>, id: number): Promise<ChapterRow | undefined> {
  return db.selectFrom('edu_chapter').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findChapterIds(db: Kysely<Database>, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  return (await db.selectFrom('edu_chapter').select('id').where('id', 'in', ids).execute()).map((row) => row.id);
}

// Written only from LESSON_TYPES.
const asLesson = (row: Selectable<LessonTable>): LessonRow => row as LessonRow;

/** A course's lessons by chapter, then sort (ids break ties). */
export async function findLessonsOfCourse(db: Kysely<Database>, courseId: number): Promise<LessonRow[]> {
  const rows = await db.selectFrom('edu_lesson').selectAll().where('course_id', '=', courseId).orderBy('chapter_id').orderBy('sort').orderBy('id').execute();
  return rows.map(asLesson);
}

export async function findLesson(db: Kysely<Database>, id: number): Promise<LessonRow | undefined> {
  const row = await db.selectFrom('edu_lesson').selectAll().where('id', '=', id).executeTakeFirst();
  return row === undefined ? undefined : asLesson(row);
}

/** The courses the lessons, or the chapters' lessons, belong to. */
export async function findCoursesOfOutline(db: Kysely<Database>, of: { lessonIds?: readonly number[]; chapterIds?: readonly number[] }): Promise<number[]> {
  const lessonIds = of.lessonIds ?? [];
  const chapterIds = of.chapterIds ?? [];
  if (lessonIds.length === 0 && chapterIds.length === 0) return [];
  const rows = await db
    .selectFrom('edu_lesson')
    .select('course_id')
    .distinct()
    .where((eb) => eb.or([eb('id', 'in', lessonIds.length > 0 ? lessonIds : [-1]), eb('chapter_id', 'in', chapterIds.length > 0 ? chapterIds : [-1])]))
    .execute();
  return rows.map((row) => row.course_id);
}

export async function findLessonIds(db: Kysely<Database>, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  return (await db.selectFrom('edu_lesson').select('id').where('id', 'in', ids).execute()).map((row) => row.id);
}

/** The sort that puts a new chapter after the course's last one. */
export async function nextChapterSort(db: Kysely<Database>, courseId: number): Promise<number> {
  const { last } = await db
    .selectFrom('edu_chapter')
    .select((eb) => eb.fn.max('sort').as('last'))
    .where('course_id', '=', courseId)
    .executeTakeFirstOrThrow();
  return last === null ? 1 : Number(last) + 1;
}

/** The sort that puts a new lesson after the chapter's last one. */
export async function nextLessonSort(db: Kysely<Database>, chapterId: number): Promise<number> {
  const { last } = await db
    .selectFrom('edu_lesson')
    .select((eb) => eb.fn.max('sort').as('last'))
    .where('chapter_id', '=', chapterId)
    .executeTakeFirstOrThrow();
  return last === null ? 1 : Number(last) + 1;
}

export async function insertChapter(db: Kysely<Database>, chapter: { courseId: number; title: string; sort: number }, by: string, now: number): Promise<number> {
  const { id } = await db
    .insertInto('edu_chapter')
    .values({ course_id: chapter.courseId, title: chapter.title, sort: chapter.sort, ...created(by, now) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateChapterTitle(db: Kysely<Database>, id: number, title: string, by: string, now: number): Promise<void> {
  await db
    .updateTable('edu_chapter')
    .set({ title, ...changed(by, now) })
    .where('id', '=', id)
    .execute();
}

/** Deletes the chapters and their lessons. */
export async function deleteChapters(db: Kysely<Database>, ids: readonly number[]): Promise<void> {
  await db.deleteFrom('edu_lesson').where('chapter_id', 'in', ids).execute();
  await db.deleteFrom('edu_chapter').where('id', 'in', ids).execute();
}

/** A lesson as its columns take it: sanitised content, the media only where its type plays one. */
export type LessonValues = {
  courseId: number;
  chapterId: number;
  title: string;
  type: LessonType;
  mediaId: number | null;
  content: string;
  completionPercent: number;
  preview: boolean;
  required: boolean;
  sort: number;
};

function columnsOf(lesson: LessonValues) {
  return {
    course_id: lesson.courseId,
    chapter_id: lesson.chapterId,
    title: lesson.title,
    type: lesson.type,
    media_id: lesson.mediaId,
    content: lesson.content,
    completion_percent: lesson.completionPercent,
    preview: lesson.preview ? 1 : 0,
    required: lesson.required ? 1 : 0,
    sort: lesson.sort,
  } as const;
}

export async function insertLesson(db: Kysely<Database>, lesson: LessonValues, by: string, now: number): Promise<number> {
  const { id } = await db
    .insertInto('edu_lesson')
    .values({ ...columnsOf(lesson), ...created(by, now) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateLesson(db: Kysely<Database>, id: number, lesson: LessonValues, by: string, now: number): Promise<void> {
  await db
    .updateTable('edu_lesson')
    .set({ ...columnsOf(lesson), ...changed(by, now) })
    .where('id', '=', id)
    .execute();
}

export async function deleteLessons(db: Kysely<Database>, ids: readonly number[]): Promise<void> {
  await db.deleteFrom('edu_lesson').where('id', 'in', ids).execute();
}

export async function setChapterSort(db: Kysely<Database>, id: number, sort: number, by: string, now: number): Promise<void> {
  await db
    .updateTable('edu_chapter')
    .set({ sort, ...changed(by, now) })
    .where('id', '=', id)
    .execute();
}

export async function setLessonPlace(db: Kysely<Database>, id: number, place: { chapterId: number; sort: number }, by: string, now: number): Promise<void> {
  await db
    .updateTable('edu_lesson')
    .set({ chapter_id: place.chapterId, sort: place.sort, ...changed(by, now) })
    .where('id', '=', id)
    .execute();
}
