/** The marking and report pages' addresses (hidden routes opened from the exam list), for the links between them. */
export const CORRECT_EXAM_PATH = '/edu/correct-exam';
export const REPORT_EXAM_PATH = '/edu/report-exam';

/** The marking page of an exam, opened on one attempt's drawer when `attemptId` is given. */
export const correctExamAddress = (examId: number, attemptId?: number) =>
  `${CORRECT_EXAM_PATH}?exam=${examId}${attemptId === undefined ? '' : `&attempt=${attemptId}`}`;
export const reportExamAddress = (examId: number) => `${REPORT_EXAM_PATH}?exam=${examId}`;
