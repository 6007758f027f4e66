import type { Course } from '@cloud-classroom/shared/courses';
import type {
  DrawCheckResult,
  Exam,
  ExamAssigned,
  ExamAssignBody,
  ExamAssignee,
  ExamAssigneeOverrideBody,
  ExamCreateBody,
  ExamPreview,
  ExamRule,
  PaperBody,
} from '@cloud-classroom/shared/exams';
import type { Page } from '@cloud-classroom/shared/http';
import type { Question, QuestionTag } from '@cloud-classroom/shared/questions';
import { queryOptions } from '@tanstack/react-query';
import { listQuery } from '../../components/list-page/list-query';
import { http, type CallOptions } from '../../lib/http-client';
import { coursesKeys } from '../courses/courses-api';

export const EXAMS_PATH = 'api/exams';
const QUESTIONS_PATH = 'api/questions';

/**
 * Everything of the exams hangs below one first key: an exam's write reloads the list, its
 * detail, its preview and its assignees. The bank's reads the editor makes hang below `questions`.
 */
export const examsKeys = {
  all: ['exams'] as const,
  exams: ['exams', 'exams'] as const,
  detail: (id: number) => ['exams', 'exams', 'detail', id] as const,
  preview: (id: number) => ['exams', 'preview', id] as const,
  assignees: (id: number) => ['exams', 'assignees', id] as const,
  rules: (id: number) => ['exams', 'assignees', id, 'rules'] as const,
  drawCheck: ['exams', 'draw-check'] as const,
  questions: ['questions'] as const,
};

// ---- Exams --------------------------------------------------------------------------------------

/** Filter by `q` (title), `courseId` and `status`. */
export const examList = listQuery<Exam>(examsKeys.exams, EXAMS_PATH);

/** One exam, for the editor opened from its address alone; silent, as the page says itself what a missing exam means. */
export const examQuery = (id: number) =>
  queryOptions({
    queryKey: examsKeys.detail(id),
    queryFn: ({ signal }) => http.get<Exam>(`${EXAMS_PATH}/${id}`, undefined, { signal, silent: true }),
  });

export const createExam = (body: ExamCreateBody, options?: CallOptions) => http.post<{ id: number }>(EXAMS_PATH, body, options);
export const updateExam = (body: ExamCreateBody & { id: number }, options?: CallOptions) => http.put(EXAMS_PATH, body, options);

/**
 * The editor's live count of each draw rule (`POST api/exams/draw-check`); a query keyed by the
 * paper, so an unchanged paper is not asked again and an older answer never replaces a newer one.
 */
export const drawCheckQuery = (paper: PaperBody) =>
  queryOptions({
    queryKey: [...examsKeys.drawCheck, paper] as const,
    queryFn: ({ signal }) => http.post<DrawCheckResult>(`${EXAMS_PATH}/draw-check`, { paper }, { signal, silent: true }),
    staleTime: 10_000,
  });

/** A freshly drawn paper with the key (`GET api/exams/{id}/preview`); each fetch draws again. */
export const examPreviewQuery = (id: number) =>
  queryOptions({
    queryKey: examsKeys.preview(id),
    queryFn: ({ signal }) => http.get<ExamPreview>(`${EXAMS_PATH}/${id}/preview`, undefined, { signal, silent: true }),
    // A preview is one draw: coming back to the page or the window should not silently draw another.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });

// ---- Assignees ----------------------------------------------------------------------------------

/** One exam's assignees: filter by `q` (username or nick name). */
export const assigneeList = (examId: number) => listQuery<ExamAssignee>(examsKeys.assignees(examId), `${EXAMS_PATH}/${examId}/assignees`);

export const assignExam = (examId: number, body: ExamAssignBody, options?: CallOptions) =>
  http.post<ExamAssigned>(`${EXAMS_PATH}/${examId}/assignees`, body, options);
export const overrideAssignees = (examId: number, body: ExamAssigneeOverrideBody, options?: CallOptions) =>
  http.put(`${EXAMS_PATH}/${examId}/assignees`, body, options);

/** The exam's department, role and term rules (never many: no paging). */
export const examRulesQuery = (examId: number) =>
  queryOptions({
    queryKey: examsKeys.rules(examId),
    queryFn: ({ signal }) => http.get<ExamRule[]>(`${EXAMS_PATH}/${examId}/assignees/rules`, undefined, { signal }),
  });
export const deleteExamRules = (examId: number, ids: readonly number[], options?: CallOptions) =>
  http.delete(`${EXAMS_PATH}/${examId}/assignees/rules`, ids, options);

// ---- What the editor picks from -----------------------------------------------------------------

/** Every course, for the course select and filter; below the courses' key, so a course's write reloads it. */
export const courseOptionsQuery = () =>
  queryOptions({
    queryKey: [...coursesKeys.courses, 'exam-options'] as const,
    queryFn: ({ signal }) =>
      http.get<Page<Course>>('api/courses', { page: 0, size: 9999, sort: 'id,desc' }, { signal }).then((page) => page.content),
  });

/** The bank's questions for the picker: filter by `type`, `difficulty`, `tag`, `q`, and `exclude` (ids already in the paper). */
export const questionPickList = listQuery<Question>([...examsKeys.questions, 'exam-picker'], QUESTIONS_PATH);

/** One question, for the paper's fixed questions (the exam names only their ids). */
export const questionQuery = (id: number) =>
  queryOptions({
    queryKey: [...examsKeys.questions, 'exam-paper', id] as const,
    queryFn: ({ signal }) => http.get<Question>(`${QUESTIONS_PATH}/${id}`, undefined, { signal, silent: true }),
    staleTime: 60_000,
  });

/** The knowledge points, for the draw rules' and the picker's tag selects. */
export const questionTagsQuery = () =>
  queryOptions({
    queryKey: [...examsKeys.questions, 'tags'] as const,
    queryFn: ({ signal }) => http.get<QuestionTag[]>(`${QUESTIONS_PATH}/tags`, undefined, { signal }),
  });
