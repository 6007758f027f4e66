import type { ComponentType } from 'react';

type PageModule = { default: ComponentType };

// Vite turns each match into its own chunk, loaded the first time its page opens.
const pageModules = import.meta.glob<PageModule>('../features/*/*-page.tsx');

/**
 * The pages a menu's `component` may name (SPEC §2: loaded on demand by that name), with the
 * file that holds each. A name missing here shows "page not found in this build".
 */
export const PAGE_FILES: Readonly<Record<string, string>> = {
  'dashboard/index': '../features/dashboard/dashboard-page.tsx',
  'course/course/index': '../features/courses/course-list-page.tsx',
  'course/category/index': '../features/courses/category-list-page.tsx',
  'course/term/index': '../features/courses/term-list-page.tsx',
  'system/user/center': '../features/users/user-center-page.tsx',
  'system/user/index': '../features/users/user-list-page.tsx',
  'system/role/index': '../features/roles/role-list-page.tsx',
  'system/menu/index': '../features/menus/menu-list-page.tsx',
  'system/dept/index': '../features/depts/dept-list-page.tsx',
  'system/dict/index': '../features/dicts/dict-page.tsx',
  'monitor/online/index': '../features/online/online-list-page.tsx',
  'monitor/log/index': '../features/logs/log-list-page.tsx',
  'monitor/log/errorLog': '../features/logs/error-log-list-page.tsx',
  'monitor/server/index': '../features/monitor/server-monitor-page.tsx',
  'monitor/sql/index': '../features/monitor/database-monitor-page.tsx',
  'tools/storage/index': '../features/storage/storage-list-page.tsx',
  'tools/deploy/index': '../features/deploy/deploy-list-page.tsx',
  'tools/database/index': '../features/database/backup-list-page.tsx',
  'tools/cloud-storage/index': '../features/cloud-storage/cloud-storage-page.tsx',
  'tools/swagger/index': '../features/swagger/swagger-page.tsx',
  'course/outline/index': '../features/courses/course-outline-page.tsx',
  'edu/edit-lesson': '../features/courses/lesson-edit-page.tsx',
  'course/applicant/index': '../features/applicants/applicant-list-page.tsx',
  'course/rule/index': '../features/applicants/rule-list-page.tsx',
  'edu/edit-applicant': '../features/applicants/applicant-edit-page.tsx',
  'exam/question/index': '../features/questions/question-list-page.tsx',
  'edu/add-question': '../features/questions/question-edit-page.tsx',
  'edu/edit-question': '../features/questions/question-edit-page.tsx',
  'edu/import-question': '../features/questions/question-import-page.tsx',
  'exam/exam/index': '../features/exams/exam-list-page.tsx',
  'edu/edit-exam': '../features/exams/exam-edit-page.tsx',
  'edu/preview-exam': '../features/exams/exam-preview-page.tsx',
  'edu/applicant-exam': '../features/exams/exam-assignee-page.tsx',
  'edu/correct-exam': '../features/attempts/correct-exam-page.tsx',
  'edu/report-exam': '../features/attempts/report-exam-page.tsx',
  'cert/certificate/index': '../features/certificates/certificate-list-page.tsx',
  'cert/template/index': '../features/certificates/template-list-page.tsx',
  'cert/rule/index': '../features/certificates/rule-list-page.tsx',
  'edu/edit-cert': '../features/certificates/template-edit-page.tsx',
  'edu/preview-cert': '../features/certificates/template-preview-page.tsx',
  'edu/applicant-cert': '../features/certificates/certificate-issue-page.tsx',
  'edu/import-cert': '../features/certificates/certificate-import-page.tsx',
  'census/user/index': '../features/census/census-list-page.tsx',
  'edu/user-census-detail': '../features/census/census-user-page.tsx',
};

export function loadPage(component: string): (() => Promise<PageModule>) | undefined {
  const file = PAGE_FILES[component];
  return file === undefined ? undefined : pageModules[file];
}
