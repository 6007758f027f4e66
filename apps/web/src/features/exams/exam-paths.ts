/** The exam pages' addresses (hidden routes but the list), for the links between them. */
export const EXAMS_LIST_PATH = '/exam/exam';
export const EDIT_EXAM_PATH = '/edu/edit-exam';
export const PREVIEW_EXAM_PATH = '/edu/preview-exam';
export const ASSIGN_EXAM_PATH = '/edu/applicant-exam';

/** The address query that opens the assignees page with its "overdue only" filter on. */
export const OVERDUE_PARAM = 'overdue';

/** The exam's assignees page showing only those overdue (past due, no passed attempt). */
export const overdueAssigneesAddress = (examId: number) => `${ASSIGN_EXAM_PATH}?id=${examId}&${OVERDUE_PARAM}=1`;
