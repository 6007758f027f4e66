import {
  LESSON_MEDIA_KIND,
  type Category,
  type CategoryCreate,
  type CategoryTree,
  type SiteCategory,
  type CategoryUpdate,
  type ChapterCreate,
  type ChapterUpdate,
  type Course,
  type CourseCreate,
  type CourseQuery,
  type CourseUpdate,
  type Lesson,
  type LessonCreate,
  type LessonType,
  type LessonUpdate,
  type Outline,
  type OutlineOrder,
  type Term,
  type TermCreate,
  type TermQuery,
  type TermUpdate,
  type SiteCourse,
  type SiteCourseQuery,
} from '@cloud-classroom/shared/courses';
import { formatDateTime } from '@cloud-classroom/shared/display';
import type { Page } from '@cloud-classroom/shared/http';
import type { Media } from '@cloud-classroom/shared/media';
import { buildTree, childrenByParent, descendantIds, type TreeOf } from '@cloud-classroom/shared/tree';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { conflict, invalidInput, notFound } from '../../domain-error.js';
import { isBlankRichText, sanitizeRichText } from '../../rich-text.js';
import type { MediaService } from '../media/media.service.js';
import type { MediaUsage } from '../media/media-usage.js';
import {
  countCoursesIn,
  countPublishedCourses,
  deleteCategories,
  findCategories,
  findCategoryLinks,
  insertCategory,
  recountCategoryChildren,
  updateCategory,
} from './categories.repo.js';
import {
  countCourseEnrolments,
  deleteCourses,
  findCourse,
  findCourseHeads,
  findCourses,
  findUsedMedia,
  insertCourse,
  isMediaReadableBy,
  updateCourse,
  type CourseFilter,
  type CourseValues,
} from './courses.repo.js';
import {
  deleteChapters,
  deleteLessons,
  findChapter,
  findChapterIds,
  findChapters,
  findCoursesOfOutline,
  findLesson,
  findLessonIds,
  findLessonsOfCourse,
  insertChapter,
  insertLesson,
  nextChapterSort,
  nextLessonSort,
  setChapterSort,
  setLessonPlace,
  updateChapterTitle,
  updateLesson,
  type LessonRow,
} from './outline.repo.js';
import { countTermEnrolments, deleteTerms, findTerm, findTermHeads, findTerms, insertTerm, updateTerm } from './terms.repo.js';

/**
 * Told of courses whose lessons changed in what completing the course takes (a lesson made
 * required or optional, moved to another course, deleted), inside the change's transaction:
 * the census counts the completed required lessons of everyone in them again.
 */
export type OutlineListener = (courseIds: number[], trx: Kysely<Database>) => Promise<void>;

export type CoursesOptions = {
  db: Kysely<Database>;
  /** The library covers and lessons pick their files from. */
  media: MediaService;
  clock: Clock;
};

/** Who is acting: the audit columns take the name, a new course's owner the id. */
export type Actor = { userId: number; username: string };

/**
 * The course catalogue (DESIGN §10): the category tree, courses, the terms they run in, and each
 * course's outline of chapters and lessons.
 */
export class CoursesService {
  /** What the media library asks before it deletes a file or streams it to a learner. */
  readonly mediaUsage: MediaUsage;

  constructor(private readonly options: CoursesOptions) {
    const { db } = options;
    this.mediaUsage = {
      usedAmong: (ids) => findUsedMedia(db, ids),
      readableBy: (userId, mediaId) => isMediaReadableBy(db, userId, mediaId),
    };
  }

  private readonly outlineListeners: OutlineListener[] = [];

  /** `listener` hears of courses whose completion changed shape (see OutlineListener). */
  onOutlineChanged(listener: OutlineListener): void {
    this.outlineListeners.push(listener);
  }

  private async outlineChanged(trx: Kysely<Database>, courseIds: readonly number[]): Promise<void> {
    const unique = [...new Set(courseIds)];
    if (unique.length === 0) return;
    for (const listener of this.outlineListeners) await listener(unique, trx);
  }

  private get db(): Kysely<Database> {
    return this.options.db;
  }

  private now(): number {
    return this.options.clock.now();
  }

  // ---- Categories -------------------------------------------------------------------------------

  async categoryTree(): Promise<CategoryTree[]> {
    return buildTree(await findCategories(this.db));
  }

  /**
   * What a learner browses the catalogue by: the categories with a published course in them or
   * below them, each counting the published courses of its subtree (what the catalogue's
   * `categoryId` finds), in the staff's order. Empty branches are left out.
   */
  async siteCategories(): Promise<SiteCategory[]> {
    const [categories, published] = await Promise.all([findCategories(this.db), countPublishedCourses(this.db)]);
    type Counted = Pick<SiteCategory, 'id' | 'pid' | 'name' | 'courseCount'> & { children?: Counted[] };
    const counted = (node: TreeOf<Category>): Counted => {
      const children = (node.children ?? []).map(counted).filter((child) => child.courseCount > 0);
      const courseCount = (published.get(node.id) ?? 0) + children.reduce((sum, child) => sum + child.courseCount, 0);
      return { id: node.id, pid: node.pid, name: node.name, courseCount, ...(children.length > 0 ? { children } : {}) };
    };
    return buildTree(categories).map(counted).filter((category) => category.courseCount > 0);
  }

  async createCategory(category: CategoryCreate, by: string): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      if (category.pid !== null) await requireParentCategory(trx, category.pid);
      const id = await insertCategory(trx, category, by, this.now());
      if (category.pid !== null) await recountCategoryChildren(trx, [category.pid]);
      return id;
    });
  }

  async updateCategory(category: CategoryUpdate, by: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const links = await findCategoryLinks(trx);
      const current = links.find((link) => link.id === category.id);
      if (current === undefined) throw notFound(`id: no category ${category.id}`);
      if (category.pid !== null) {
        if (descendantIds(links, [category.id]).includes(category.pid)) {
          throw invalidInput('pid: a category cannot be moved under itself or one of its sub-categories');
        }
        if (!links.some((link) => link.id === category.pid)) throw invalidInput(`pid: category ${category.pid} does not exist`);
      }
      await updateCategory(trx, category.id, category, by, this.now());
      await recountCategoryChildren(trx, [...new Set([current.pid, category.pid])].filter((pid) => pid !== null));
    });
  }

  /** Deletes empty categories: one that still has sub-categories (not deleted with it) or courses is refused. */
  async deleteCategories(ids: readonly number[]): Promise<void> {
    const unique = [...new Set(ids)];
    await this.db.transaction().execute(async (trx) => {
      const links = await findCategoryLinks(trx);
      const byId = new Map(links.map((link) => [link.id, link]));
      const missing = unique.find((id) => !byId.has(id));
      if (missing !== undefined) throw notFound(`ids: no category ${missing}`);
      const doomed = new Set(unique);
      const children = childrenByParent(links);
      const courses = await countCoursesIn(trx, unique);
      for (const id of unique) {
        const name = byId.get(id)?.name ?? String(id);
        const kept = (children.get(id) ?? []).filter((child) => !doomed.has(child.id)).length;
        if (kept > 0) throw conflict(`category '${name}' still has ${kept} sub-categor${kept === 1 ? 'y' : 'ies'}: move or delete them first`);
        const held = courses.get(id) ?? 0;
        if (held > 0) throw conflict(`category '${name}' still holds ${held} course(s): move them to another category first`);
      }
      await deleteCategories(trx, unique);
      const parents = unique.flatMap((id) => {
        const pid = byId.get(id)?.pid ?? null;
        return pid === null || doomed.has(pid) ? [] : [pid];
      });
      await recountCategoryChildren(trx, [...new Set(parents)]);
    });
  }

  // ---- Courses ----------------------------------------------------------------------------------

  async listCourses(query: CourseQuery): Promise<Page<Course>> {
    return findCourses(this.db, await this.courseFilter(query), query);
  }

  /**
   * The learner catalogue: published courses only, newest first. The rows carry more than a
   * SiteCourse; the route's response schema writes only its fields.
   */
  async catalogue(query: SiteCourseQuery): Promise<Page<SiteCourse>> {
    const filter = await this.courseFilter({ ...query, sort: [], status: 'published' });
    return findCourses(this.db, filter, { page: query.page, size: query.size, sort: [{ field: 'updateTime', direction: 'desc' }] });
  }

  /** Every course the filter matches, in the asked order, for the download. */
  async exportCourses(query: CourseQuery): Promise<Course[]> {
    return (await findCourses(this.db, await this.courseFilter(query), { sort: query.sort })).content;
  }

  async course(id: number): Promise<Course> {
    const course = await findCourse(this.db, id);
    if (course === undefined) throw notFound(`id: no course ${id}`);
    return course;
  }

  async createCourse(course: CourseCreate, by: Actor): Promise<number> {
    const values = await this.courseValues(course);
    return insertCourse(this.db, values, by.userId, by.username, this.now());
  }

  async updateCourse(course: CourseUpdate, by: Actor): Promise<void> {
    const values = await this.courseValues(course);
    await this.db.transaction().execute(async (trx) => {
      if (!(await findCourseHeads(trx, [course.id])).has(course.id)) throw notFound(`id: no course ${course.id}`);
      await updateCourse(trx, course.id, values, by.username, this.now());
    });
  }

  /**
   * Deletes the courses with their terms, chapters and lessons (their media stay in the library).
   * A published course people are enrolled in is refused: archiving keeps their records.
   */
  async deleteCourses(ids: readonly number[]): Promise<void> {
    const unique = [...new Set(ids)];
    await this.db.transaction().execute(async (trx) => {
      const heads = await findCourseHeads(trx, unique);
      const missing = unique.find((id) => !heads.has(id));
      if (missing !== undefined) throw notFound(`ids: no course ${missing}`);
      const enrolments = await countCourseEnrolments(trx, unique);
      for (const head of heads.values()) {
        const count = enrolments.get(head.id) ?? 0;
        if (head.status === 'published' && count > 0) {
          throw conflict(`course '${head.title}' is published and has ${count} enrolment(s): archive it instead of deleting it`);
        }
      }
      await deleteCourses(trx, unique);
    });
  }

  private async courseFilter(query: CourseQuery): Promise<CourseFilter> {
    const categoryIds = query.categoryId === undefined ? undefined : descendantIds(await findCategoryLinks(this.db), [query.categoryId]);
    return { q: query.q, status: query.status, categoryIds };
  }

  /** The course checked against the catalogue and the library, its description sanitised. */
  private async courseValues(course: CourseCreate): Promise<CourseValues> {
    if (course.categoryId !== null && (await findCategoryLinks(this.db, [course.categoryId])).length === 0) {
      throw invalidInput(`categoryId: category ${course.categoryId} does not exist`);
    }
    if (course.cover !== null) {
      const cover = await this.options.media.find(course.cover);
      if (cover === undefined) throw invalidInput(`cover: media ${course.cover} does not exist`);
      if (cover.kind !== 'image') throw invalidInput(`cover: media ${course.cover} is a ${cover.kind}, not an image`);
    }
    return { ...course, description: await sanitizeRichText(course.description) };
  }

  // ---- Terms ------------------------------------------------------------------------------------

  async listTerms(query: TermQuery): Promise<Page<Term>> {
    return findTerms(this.db, { courseId: query.courseId, q: query.q }, query);
  }

  async exportTerms(query: TermQuery): Promise<Term[]> {
    return (await findTerms(this.db, { courseId: query.courseId, q: query.q }, { sort: query.sort })).content;
  }

  async createTerm(term: TermCreate, by: string): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      await requireCourse(trx, term.courseId);
      return insertTerm(trx, term, by, this.now());
    });
  }

  async updateTerm(term: TermUpdate, by: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const current = await findTerm(trx, term.id);
      if (current === undefined) throw notFound(`id: no term ${term.id}`);
      await requireCourse(trx, term.courseId);
      if (term.courseId !== current.courseId && ((await countTermEnrolments(trx, [term.id])).get(term.id) ?? 0) > 0) {
        throw conflict('courseId: a term people have enrolled in cannot move to another course');
      }
      if (term.capacity !== null && term.capacity < current.enrolled) {
        throw conflict(`capacity: ${current.enrolled} people are already enrolled`);
      }
      await updateTerm(trx, term.id, term, by, this.now());
    });
  }

  async deleteTerms(ids: readonly number[]): Promise<void> {
    const unique = [...new Set(ids)];
    await this.db.transaction().execute(async (trx) => {
      const heads = await findTermHeads(trx, unique);
      const missing = unique.find((id) => !heads.has(id));
      if (missing !== undefined) throw notFound(`ids: no term ${missing}`);
      const enrolments = await countTermEnrolments(trx, unique);
      for (const head of heads.values()) {
        const count = enrolments.get(head.id) ?? 0;
        if (count > 0) throw conflict(`term '${head.name}' has ${count} enrolment(s) and cannot be deleted`);
      }
      await deleteTerms(trx, unique);
    });
  }

  // ---- Outline: chapters and lessons ------------------------------------------------------------

  async outline(courseId: number): Promise<Outline> {
    await requireCourse(this.db, courseId, 'not-found');
    const [chapters, lessons] = await Promise.all([findChapters(this.db, courseId), findLessonsOfCourse(this.db, courseId)]);
    const media = await this.mediaOf(lessons);
    const lessonsOf = new Map<number, LessonRow[]>();
    for (const lesson of lessons) lessonsOf.set(lesson.chapter_id, [...(lessonsOf.get(lesson.chapter_id) ?? []), lesson]);
    return chapters.map((chapter) => ({
      id: chapter.id,
      title: chapter.title,
      sort: chapter.sort,
      lessons: (lessonsOf.get(chapter.id) ?? []).map((lesson) => outlineLesson(lesson, media.get(lesson.media_id ?? 0))),
    }));
  }

  /** Puts the course's chapters, and the lessons in each, in the given order; lessons may change chapters. */
  async reorderOutline(courseId: number, order: OutlineOrder, by: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await requireCourse(trx, courseId, 'not-found');
      const chapters = (await findChapters(trx, courseId)).map((chapter) => chapter.id);
      const lessons = (await findLessonsOfCourse(trx, courseId)).map((lesson) => lesson.id);
      requireEachOnce('chapter', chapters, order.chapters.map((chapter) => chapter.id));
      requireEachOnce('lesson', lessons, order.chapters.flatMap((chapter) => chapter.lessons));
      const now = this.now();
      for (const [index, chapter] of order.chapters.entries()) {
        await setChapterSort(trx, chapter.id, index + 1, by, now);
        for (const [place, lesson] of chapter.lessons.entries()) {
          await setLessonPlace(trx, lesson, { chapterId: chapter.id, sort: place + 1 }, by, now);
        }
      }
    });
  }

  /** A new chapter goes after the course's last one. */
  async createChapter(chapter: ChapterCreate, by: string): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      await requireCourse(trx, chapter.courseId);
      return insertChapter(trx, { ...chapter, sort: await nextChapterSort(trx, chapter.courseId) }, by, this.now());
    });
  }

  async updateChapter(chapter: ChapterUpdate, by: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      if ((await findChapter(trx, chapter.id)) === undefined) throw notFound(`id: no chapter ${chapter.id}`);
      await updateChapterTitle(trx, chapter.id, chapter.title, by, this.now());
    });
  }

  /** Deletes the chapters with their lessons. */
  async deleteChapters(ids: readonly number[]): Promise<void> {
    const unique = [...new Set(ids)];
    await this.db.transaction().execute(async (trx) => {
      const found = new Set(await findChapterIds(trx, unique));
      const missing = unique.find((id) => !found.has(id));
      if (missing !== undefined) throw notFound(`ids: no chapter ${missing}`);
      const courseIds = await findCoursesOfOutline(trx, { chapterIds: unique });
      await deleteChapters(trx, unique);
      await this.outlineChanged(trx, courseIds);
    });
  }

  async lesson(id: number): Promise<Lesson> {
    const lesson = await findLesson(this.db, id);
    if (lesson === undefined) throw notFound(`id: no lesson ${id}`);
    const media = lesson.media_id === null ? undefined : await this.options.media.find(lesson.media_id);
    return {
      ...outlineLesson(lesson, media),
      courseId: lesson.course_id,
      chapterId: lesson.chapter_id,
      sort: lesson.sort,
      media: media ?? null,
      content: lesson.content,
      required: lesson.required === 1,
      createBy: lesson.create_by,
      updateBy: lesson.update_by,
      createTime: formatDateTime(lesson.create_time),
      updateTime: formatDateTime(lesson.update_time),
    };
  }

  /** A new lesson goes after its chapter's last one, in the chapter's course. */
  async createLesson(lesson: LessonCreate, by: string): Promise<number> {
    const checked = await this.lessonValues(lesson);
    return this.db.transaction().execute(async (trx) => {
      const chapter = await requireChapter(trx, lesson.chapterId);
      const sort = await nextLessonSort(trx, chapter.id);
      return insertLesson(trx, { ...lesson, ...checked, courseId: chapter.course_id, sort }, by, this.now());
    });
  }

  /** A lesson moved to another chapter goes after that chapter's last one, and into its course. */
  async updateLesson(lesson: LessonUpdate, by: string): Promise<void> {
    const checked = await this.lessonValues(lesson);
    await this.db.transaction().execute(async (trx) => {
      const current = await findLesson(trx, lesson.id);
      if (current === undefined) throw notFound(`id: no lesson ${lesson.id}`);
      const chapter = await requireChapter(trx, lesson.chapterId);
      const sort = chapter.id === current.chapter_id ? current.sort : await nextLessonSort(trx, chapter.id);
      await updateLesson(trx, lesson.id, { ...lesson, ...checked, courseId: chapter.course_id, sort }, by, this.now());
      if (current.required !== (lesson.required ? 1 : 0) || current.course_id !== chapter.course_id) await this.outlineChanged(trx, [current.course_id, chapter.course_id]);
    });
  }

  async deleteLessons(ids: readonly number[]): Promise<void> {
    const unique = [...new Set(ids)];
    await this.db.transaction().execute(async (trx) => {
      const found = new Set(await findLessonIds(trx, unique));
      const missing = unique.find((id) => !found.has(id));
      if (missing !== undefined) throw notFound(`ids: no lesson ${missing}`);
      const courseIds = await findCoursesOfOutline(trx, { lessonIds: unique });
      await deleteLessons(trx, unique);
      await this.outlineChanged(trx, courseIds);
    });
  }

  /**
   * The lesson's media checked against its type (a text lesson keeps none, whatever the form still
   * held), and its content sanitised; a text lesson must show something.
   */
  private async lessonValues(lesson: LessonCreate): Promise<{ mediaId: number | null; content: string }> {
    const content = await sanitizeRichText(lesson.content);
    if (lesson.type === 'text') {
      if (isBlankRichText(content)) throw invalidInput('content: a text lesson needs its text');
      return { mediaId: null, content };
    }
    const needed = LESSON_MEDIA_KIND[lesson.type];
    // The schema has made sure a video or document lesson names its media.
    const media = lesson.mediaId === null ? undefined : await this.options.media.find(lesson.mediaId);
    if (media === undefined) throw invalidInput(`mediaId: media ${lesson.mediaId} does not exist`);
    if (media.kind !== needed) throw invalidInput(`mediaId: a ${lesson.type} lesson plays a ${needed}, and media ${media.id} is ${media.kind === 'image' ? 'an' : 'a'} ${media.kind}`);
    return { mediaId: media.id, content };
  }

  private async mediaOf(lessons: readonly LessonRow[]): Promise<Map<number, Media>> {
    const ids = [...new Set(lessons.flatMap((lesson) => (lesson.media_id === null ? [] : [lesson.media_id])))];
    return new Map((await this.options.media.findMany(ids)).map((media) => [media.id, media]));
  }
}

function outlineLesson(lesson: LessonRow, media: Media | undefined) {
  return {
    id: lesson.id,
    title: lesson.title,
    type: lesson.type satisfies LessonType,
    durationSeconds: media?.durationSeconds ?? null,
    pages: media?.pages ?? null,
    completionPercent: lesson.completion_percent,
    preview: lesson.preview === 1,
  };
}

async function requireParentCategory(db: Kysely<Database>, pid: number): Promise<void> {
  if ((await findCategoryLinks(db, [pid])).length === 0) throw invalidInput(`pid: category ${pid} does not exist`);
}

/**
 * A course named in a body is a field that must point somewhere (400 naming `courseId`); one
 * named in the path is the resource itself (404).
 */
async function requireCourse(db: Kysely<Database>, id: number, missing: 'invalid' | 'not-found' = 'invalid'): Promise<void> {
  if ((await findCourseHeads(db, [id])).has(id)) return;
  throw missing === 'invalid' ? invalidInput(`courseId: course ${id} does not exist`) : notFound(`id: no course ${id}`);
}

async function requireChapter(db: Kysely<Database>, id: number) {
  const chapter = await findChapter(db, id);
  if (chapter === undefined) throw invalidInput(`chapterId: chapter ${id} does not exist`);
  return chapter;
}

/** The order must name each of `existing` once and nothing else. */
function requireEachOnce(kind: 'chapter' | 'lesson', existing: readonly number[], listed: readonly number[]): void {
  const known = new Set(existing);
  const seen = new Set<number>();
  for (const id of listed) {
    if (!known.has(id)) throw invalidInput(`chapters: ${kind} ${id} is not in this course`);
    if (seen.has(id)) throw invalidInput(`chapters: ${kind} ${id} is listed twice`);
    seen.add(id);
  }
  const left = existing.find((id) => !seen.has(id));
  if (left !== undefined) throw invalidInput(`chapters: ${kind} ${left} is missing; list every chapter and lesson of the course exactly once`);
}
