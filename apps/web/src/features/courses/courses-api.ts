import type {
  CategoryCreate,
  CategoryTree,
  CategoryUpdate,
  Course,
  CourseCreate,
  CourseUpdate,
  Term,
  TermCreateBody,
  TermUpdateBody,
} from '@cloud-classroom/shared/courses';
import type { Media } from '@cloud-classroom/shared/media';
import { queryOptions } from '@tanstack/react-query';
import { listQuery } from '../../components/list-page/list-query';
import { http, type CallOptions } from '../../lib/http-client';

const CATEGORIES_PATH = 'api/categories';
const COURSES_PATH = 'api/courses';
const TERMS_PATH = 'api/terms';

/**
 * Everything of the catalogue hangs below one first key. A course's detail hangs below the
 * course list's key, so the list's reload after a write reloads it too.
 */
export const coursesKeys = {
  all: ['courses'] as const,
  categories: ['courses', 'categories'] as const,
  courses: ['courses', 'courses'] as const,
  terms: ['courses', 'terms'] as const,
};

// ---- Categories ---------------------------------------------------------------------------------

/** The whole category tree (tens of rows, never paged). */
export const categoryTreeQuery = () =>
  queryOptions({
    queryKey: coursesKeys.categories,
    queryFn: ({ signal }) => http.get<CategoryTree[]>(CATEGORIES_PATH, undefined, { signal }),
  });

export const createCategory = (body: CategoryCreate, options?: CallOptions) => http.post(CATEGORIES_PATH, body, options);
export const updateCategory = (body: CategoryUpdate, options?: CallOptions) => http.put(CATEGORIES_PATH, body, options);
export const deleteCategories = (ids: readonly number[], options?: CallOptions) => http.delete(CATEGORIES_PATH, ids, options);

// ---- Courses ------------------------------------------------------------------------------------

/** Filter by `q` (title or summary), `categoryId` (with the categories below it) and `status`. */
export const courseList = listQuery<Course>(coursesKeys.courses, COURSES_PATH);

/** One course; silent, as the pages that read it say themselves what a missing course means. */
export const courseQuery = (id: number) =>
  queryOptions({
    queryKey: [...coursesKeys.courses, 'detail', id],
    queryFn: ({ signal }) => http.get<Course>(`${COURSES_PATH}/${id}`, undefined, { signal, silent: true }),
  });

export const createCourse = (body: CourseCreate, options?: CallOptions) => http.post(COURSES_PATH, body, options);
export const updateCourse = (body: CourseUpdate, options?: CallOptions) => http.put(COURSES_PATH, body, options);

/** What `PUT api/courses` takes for a listed course, with `changes` applied (the status quick actions). */
export function courseUpdateOf(course: Course, changes: Partial<CourseUpdate> = {}): CourseUpdate {
  const { id, title, categoryId, status, required, cover, summary, description, maxPlaybackRate, allowSkip } = course;
  return { id, title, categoryId, status, required, cover, summary, description, maxPlaybackRate, allowSkip, ...changes };
}

// ---- Terms --------------------------------------------------------------------------------------

/** The terms of one course: filter by `courseId` (always) and `q`. */
export const termList = listQuery<Term>(coursesKeys.terms, TERMS_PATH);

export const createTerm = (body: TermCreateBody, options?: CallOptions) => http.post(TERMS_PATH, body, options);
export const updateTerm = (body: TermUpdateBody, options?: CallOptions) => http.put(TERMS_PATH, body, options);

// ---- Media (a course's cover) -------------------------------------------------------------------

/** Uploads an image for a cover (multipart field `file`); the server decides its type by its first bytes. */
export function uploadMedia(file: Blob, name: string, options?: CallOptions): Promise<Media> {
  const form = new FormData();
  form.append('file', file, name);
  return http.post<Media>('api/media', form, options);
}
