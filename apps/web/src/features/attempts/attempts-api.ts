import type { ExamReport, MarkAnswerBody, MarkingAttempt, MarkingQueue, RegradeResult } from '@cloud-classroom/shared/attempts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { downloadFile } from '../../lib/download';
import { http, type CallOptions } from '../../lib/http-client';

const MARKING_PATH = 'api/marking';
const EXAMS_PATH = 'api/exams';

/**
 * Everything of the marking and the report hangs below one first key: a mark reloads the queue's
 * counters, the attempt's drawer and the report; a regrade reloads them all.
 */
export const attemptsKeys = {
  all: ['attempts'] as const,
  queues: (examId: number) => ['attempts', 'queue', examId] as const,
  attempt: (attemptId: number) => ['attempts', 'attempt', attemptId] as const,
  report: (examId: number) => ['attempts', 'report', examId] as const,
};

export type QueueView = {
  by: 'question' | 'attempt';
  /** Only what is still to be marked, or everything (to revisit). */
  pending: boolean;
  /** The question (by question) or attempt (by attempt) opened; none: the groups only. */
  group?: number;
  /** Candidates' names instead of their anonymous labels. */
  reveal: boolean;
};

/** `GET api/marking/exams/{id}/queue`: the groups with their counters and the items of the group opened. */
export const markingQueueQuery = (examId: number, view: QueueView) =>
  queryOptions({
    queryKey: [...attemptsKeys.queues(examId), view] as const,
    queryFn: ({ signal }) =>
      http.get<MarkingQueue>(
        `${MARKING_PATH}/exams/${examId}/queue`,
        {
          by: view.by,
          pending: view.pending,
          reveal: view.reveal,
          questionId: view.by === 'question' ? view.group : undefined,
          attemptId: view.by === 'attempt' ? view.group : undefined,
        },
        { signal, silent: true },
      ),
    // The marker keeps the item list on screen while the next view loads, so the keyboard flow never lands on an empty page.
    placeholderData: keepPreviousData,
  });

/** `GET api/marking/attempts/{id}`: one attempt's answers, integrity timeline and score history. */
export const markingAttemptQuery = (attemptId: number) =>
  queryOptions({
    queryKey: attemptsKeys.attempt(attemptId),
    queryFn: ({ signal }) => http.get<MarkingAttempt>(`${MARKING_PATH}/attempts/${attemptId}`, undefined, { signal, silent: true }),
  });

/** `PUT api/marking/answers/{id}`: a mark, or an override of a score already there (then with a reason). */
export const markAnswer = (answerId: number, body: MarkAnswerBody, options?: CallOptions) => http.put(`${MARKING_PATH}/answers/${answerId}`, body, options);

/** `POST api/exams/{id}/regrade`: scores every submitted attempt again with the questions' current keys. */
export const regradeExam = (examId: number, options?: CallOptions) => http.post<RegradeResult>(`${EXAMS_PATH}/${examId}/regrade`, undefined, options);

/** `GET api/exams/{id}/report`. */
export const examReportQuery = (examId: number) =>
  queryOptions({
    queryKey: attemptsKeys.report(examId),
    queryFn: ({ signal }) => http.get<ExamReport>(`${EXAMS_PATH}/${examId}/report`, undefined, { signal, silent: true }),
  });

/** `GET api/exams/{id}/report/download`: the report as an .xlsx, saved under the exam's title. */
export const downloadExamReport = (examId: number, name: string) => downloadFile(`${EXAMS_PATH}/${examId}/report/download`, {}, name);
