/** The exam pages' addresses (hidden routes but the list), for the links between them. */
export const EXAMS_LIST_PATH = '/exam/exam';
export const EDIT_EXAM_PATH = '/edu/edit-exam';
export const PREVIEW_EXAM_PATH = '/edu/preview-exam';
export const ASSIGN_EXAM_PATH = '/edu/applicant-exam';
