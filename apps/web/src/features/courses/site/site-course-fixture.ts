/** A course's learner details for the site pages' tests (tests only). */
import type { SiteCourseDetail } from '@cloud-classroom/shared/progress';

export function siteCourse(extra: Partial<SiteCourseDetail> = {}): SiteCourseDetail {
  return {
    id: 5,
    title: 'Fire safety',
    categoryId: 1,
    categoryName: 'Safety',
    required: true,
    cover: null,
    summary: 'Pull, aim, squeeze',
    chapterCount: 2,
    lessonCount: 3,
    updateTime: '2025-01-01 00:00:00',
    description: '<p>Know your <strong>extinguishers</strong>.</p>',
    maxPlaybackRate: 2,
    allowSkip: false,
    outline: [
      {
        id: 1,
        title: 'Basics',
        lessons: [
          { id: 11, title: 'Why fires start', type: 'video', durationSeconds: 125, pages: null, completionPercent: 90, preview: true, required: true, progress: { percent: 100, completed: true } },
          { id: 12, title: 'The handbook', type: 'document', durationSeconds: null, pages: 12, completionPercent: 90, preview: false, required: true, progress: { percent: 30, completed: false } },
        ],
      },
      {
        id: 2,
        title: 'Practice',
        lessons: [{ id: 13, title: 'Drill notes', type: 'text', durationSeconds: null, pages: null, completionPercent: 100, preview: false, required: false, progress: null }],
      },
    ],
    terms: [
      { id: 21, name: 'Spring', startAt: '2026-03-01 09:00:00', endAt: '2026-04-01 18:00:00', capacity: 30, seatsLeft: 3, enrolMode: 'approval' },
      { id: 22, name: 'Summer', startAt: '2026-06-01 09:00:00', endAt: '2026-07-01 18:00:00', capacity: 10, seatsLeft: 0, enrolMode: 'open' },
      { id: 23, name: 'Autumn', startAt: '2026-09-01 09:00:00', endAt: '2026-10-01 18:00:00', capacity: null, seatsLeft: null, enrolMode: 'assigned' },
    ],
    enrolment: null,
    mayStudy: false,
    progress: { percent: 0, completedLessons: 0, requiredLessons: 2, completed: false, nextLessonId: 11 },
    ...extra,
  };
}

export const enrolled = (status: 'approved' | 'in_progress' | 'completed' = 'in_progress') => ({
  id: 40,
  termId: 21,
  status,
  source: 'self' as const,
  dueAt: '2026-03-20 00:00:00',
  overdue: false,
  reason: null,
});
