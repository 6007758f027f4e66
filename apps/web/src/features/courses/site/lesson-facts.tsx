import type { LessonType, OutlineLesson } from '@cloud-classroom/shared/courses';
import { useLocaleText } from '../../../lib/use-locale-text';

const ICON_PATHS: Record<LessonType, string> = {
  // A play button in a frame, a page with a folded corner, lines of text.
  video: 'M3 5h18v14H3zM10 9v6l5-3z',
  document: 'M6 3h9l4 4v14H6zM15 3v4h4',
  text: 'M4 6h16M4 10h16M4 14h16M4 18h10',
};

/** The lesson's type as an icon, named for screen readers. */
export function LessonTypeIcon({ type }: { type: LessonType }) {
  const { t } = useLocaleText();
  return (
    <svg className="course-site-lesson__icon" viewBox="0 0 24 24" role="img" aria-label={t(`site.lessonType.${type}`)}>
      <path d={ICON_PATHS[type]} fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinejoin="round" strokeLinecap="round" />
    </svg>
  );
}

/** How long a lesson is: a video's minutes (rounded up), a document's pages; nothing for text. */
export function LessonLength({ lesson }: { lesson: Pick<OutlineLesson, 'type' | 'durationSeconds' | 'pages'> }) {
  const { t } = useLocaleText();
  if (lesson.type === 'video' && lesson.durationSeconds !== null) {
    return <span>{t('site.minutes', { count: Math.max(1, Math.ceil(lesson.durationSeconds / 60)) })}</span>;
  }
  if (lesson.type === 'document' && lesson.pages !== null) return <span>{t('site.pages', { count: lesson.pages })}</span>;
  return null;
}
