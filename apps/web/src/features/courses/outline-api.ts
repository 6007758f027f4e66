import type { ChapterCreate, ChapterUpdate, Course, Outline, OutlineOrder } from '@cloud-classroom/shared/courses';
import { queryOptions } from '@tanstack/react-query';
import { http, type CallOptions } from '../../lib/http-client';

/** Everything the outline editor reads, below one first key: a lesson saved elsewhere refreshes it. */
export const outlineKeys = {
  all: ['outline'] as const,
  course: (courseId: number) => [...outlineKeys.all, 'course', courseId] as const,
  outline: (courseId: number) => [...outlineKeys.all, 'outline', courseId] as const,
};

export const outlineCourseQuery = (courseId: number) =>
  queryOptions({
    queryKey: outlineKeys.course(courseId),
    queryFn: ({ signal }) => http.get<Course>(`api/courses/${courseId}`, undefined, { signal }),
  });

export const outlineQuery = (courseId: number) =>
  queryOptions({
    queryKey: outlineKeys.outline(courseId),
    queryFn: ({ signal }) => http.get<Outline>(`api/courses/${courseId}/outline`, undefined, { signal }),
  });

/** The new order of every chapter and lesson of the course (the server refuses one that leaves any out). */
export function saveOutlineOrder(courseId: number, order: OutlineOrder, options?: CallOptions): Promise<void> {
  return http.put(`api/courses/${courseId}/outline`, order, options);
}

export function createChapter(body: ChapterCreate, options?: CallOptions): Promise<{ id: number }> {
  return http.post('api/chapters', body, options);
}

export function renameChapter(body: ChapterUpdate, options?: CallOptions): Promise<void> {
  return http.put('api/chapters', body, options);
}

/** Deletes the chapters with their lessons. */
export function deleteChapters(ids: number[], options?: CallOptions): Promise<void> {
  return http.delete('api/chapters', ids, options);
}
