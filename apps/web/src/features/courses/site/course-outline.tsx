import type { SiteCourseDetail } from '@cloud-classroom/shared/progress';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ProgressRing } from '../../../components/site/progress-ring';
import { useLocaleText } from '../../../lib/use-locale-text';
import { LessonLength, LessonTypeIcon } from './lesson-facts';

export type SiteLessonOfOutline = SiteCourseDetail['outline'][number]['lessons'][number];

/**
 * A course's chapters and lessons as the learner pages list them: each lesson with its type and
 * length, a link to the player where I may open it (enrolled, or a free preview), and what the
 * page adds: a progress ring, tags.
 */
export function CourseOutline({
  course,
  withProgress = false,
  tags,
  empty,
}: {
  course: SiteCourseDetail;
  /** A ring of my progress before each lesson. */
  withProgress?: boolean;
  tags: (lesson: SiteLessonOfOutline) => ReactNode;
  /** What a course without lessons shows. */
  empty: ReactNode;
}) {
  const { t } = useLocaleText();
  if (course.outline.every((chapter) => chapter.lessons.length === 0)) return empty;
  return (
    <>
      {course.outline.map((chapter) => (
        <section key={chapter.id} className="course-site-chapter" aria-label={chapter.title}>
          <h3 className="course-site-chapter__title">{chapter.title}</h3>
          <ul className="course-site-lessons">
            {chapter.lessons.map((lesson) => (
              <li key={lesson.id} className="course-site-lesson">
                {withProgress && <ProgressRing percent={lesson.progress?.percent ?? 0} size={36} label={lesson.title} />}
                <LessonTypeIcon type={lesson.type} />
                <span className="course-site-lesson__title">
                  {course.mayStudy || lesson.preview ? (
                    <Link className="site-link" to={`/play?lesson=${lesson.id}`}>
                      {lesson.title}
                    </Link>
                  ) : (
                    <>
                      {lesson.title} <span className="site-visually-hidden">({t('learning.locked')})</span>
                    </>
                  )}
                </span>
                <span className="course-site-lesson__facts">
                  {tags(lesson)}
                  <LessonLength lesson={lesson} />
                </span>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </>
  );
}
