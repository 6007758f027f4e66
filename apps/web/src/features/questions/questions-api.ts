import type { ImportResult } from '@cloud-classroom/shared/applicants';
import type { QuestionType } from '@cloud-classroom/shared/question-scoring';
import type { Question, QuestionCreateBody, QuestionImage, QuestionTag } from '@cloud-classroom/shared/questions';
import { queryOptions } from '@tanstack/react-query';
import { listQuery } from '../../components/list-page/list-query';
import { http, type CallOptions } from '../../lib/http-client';

export const QUESTIONS_PATH = 'api/questions';
export const QUESTION_TEMPLATE_PATH = `${QUESTIONS_PATH}/template`;

/** Questions and their knowledge points hang below one first key: a question's write reloads the tags' counts too. */
export const questionsKeys = {
  all: ['questions'] as const,
  questions: ['questions', 'questions'] as const,
  tags: ['questions', 'tags'] as const,
};

/** Filter by `type`, `difficulty`, `tag`, `q` (part of the stem) and `duplicate`. */
export const questionList = listQuery<Question>(questionsKeys.questions, QUESTIONS_PATH);

/** One question (`GET api/questions/{id}`), for the editor opened from its address. */
export const questionQuery = (id: number) =>
  queryOptions({
    queryKey: [...questionsKeys.questions, 'one', id] as const,
    queryFn: ({ signal }) => http.get<Question>(`${QUESTIONS_PATH}/${id}`, undefined, { signal }),
  });

/** The knowledge points whose name contains `q`, with how many questions carry each. */
export const questionTagsQuery = (q = '') =>
  queryOptions({
    queryKey: [...questionsKeys.tags, q] as const,
    queryFn: ({ signal }) => http.get<QuestionTag[]>(`${QUESTIONS_PATH}/tags`, { q: q || undefined }, { signal }),
  });

/** Answers 201 with the new question's id. */
export const createQuestion = (body: QuestionCreateBody, options?: CallOptions) => http.post<{ id: number }>(QUESTIONS_PATH, body, options);
export const updateQuestion = (body: QuestionCreateBody & { id: number }, options?: CallOptions) => http.put(QUESTIONS_PATH, body, options);

/** Stores a picture for a stem or an analysis; `url` is the API path its `<img>` loads. */
export function uploadQuestionImage(file: Blob, name: string, options?: CallOptions): Promise<QuestionImage> {
  const form = new FormData();
  form.append('file', file, name);
  return http.post<QuestionImage>(`${QUESTIONS_PATH}/images`, form, options);
}

/**
 * Checks (`dryRun`) or imports a workbook of questions (multipart field `file`). All or nothing:
 * an import with any bad row writes nothing and answers the errors.
 */
export function importQuestions(file: Blob, name: string, dryRun: boolean, options?: CallOptions): Promise<ImportResult> {
  const form = new FormData();
  form.append('file', file, name);
  return http.post<ImportResult>(`${QUESTIONS_PATH}/import`, form, { ...options, query: { dryRun } });
}

/** The template's query: one type's sheet, or the whole workbook. */
export const templateQuery = (type: QuestionType | undefined) => (type === undefined ? {} : { type });
