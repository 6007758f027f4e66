import type { Lesson, LessonCreate, LessonUpdate } from '@cloud-classroom/shared/courses';
import { queryOptions } from '@tanstack/react-query';
import { http, type CallOptions } from '../../lib/http-client';

export const lessonsKeys = {
  all: ['lessons'] as const,
  detail: (id: number) => [...lessonsKeys.all, id] as const,
};

export const lessonQuery = (id: number) =>
  queryOptions({
    queryKey: lessonsKeys.detail(id),
    queryFn: ({ signal }) => http.get<Lesson>(`api/lessons/${id}`, undefined, { signal }),
  });

export function createLesson(body: LessonCreate, options?: CallOptions): Promise<{ id: number }> {
  return http.post('api/lessons', body, options);
}

export function updateLesson(body: LessonUpdate, options?: CallOptions): Promise<void> {
  return http.put('api/lessons', body, options);
}

export function deleteLessons(ids: number[], options?: CallOptions): Promise<void> {
  return http.delete('api/lessons', ids, options);
}
