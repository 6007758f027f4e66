/** An exam as `GET api/site/exams` answers it, for the learner pages' tests (tests only). */
import type { SiteExam } from '@cloud-classroom/shared/exams';

export const siteExam = (id: number, title: string, extra: Partial<SiteExam> = {}): SiteExam => ({
  id,
  title,
  description: '',
  courseId: 5,
  courseTitle: 'Fire safety',
  openAt: '2025-01-01 08:00:00',
  closeAt: null,
  dueAt: null,
  overdue: false,
  limitMinutes: 30,
  attemptsAllowed: 2,
  attemptsUsed: 0,
  attemptsLeft: 2,
  openAttemptId: null,
  totalScore: 100,
  passScore: 60,
  questionCount: 12,
  state: 'open',
  ...extra,
});
