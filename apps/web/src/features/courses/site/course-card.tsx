import type { SiteCourse } from '@cloud-classroom/shared/courses';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { SiteTag } from '../../../components/site/site-tag';
import { apiUrl } from '../../../lib/http-client';
import { useLocaleText } from '../../../lib/use-locale-text';

/** The cover at 16:9, or the course's initial on the theme colour when it has none (or it fails to load). */
export function CourseCoverImage({ cover, title }: { cover: number | null; title: string }) {
  const [failed, setFailed] = useState(false);
  if (cover === null || failed) {
    return (
      <span className="course-site-cover course-site-cover--empty" aria-hidden="true">
        {title.slice(0, 1)}
      </span>
    );
  }
  return (
    <img
      className="course-site-cover"
      // The browser sends the session cookie itself; the content route accepts it for covers.
      src={apiUrl(`api/media/${cover}/content`)}
      alt=""
      loading="lazy"
      onError={() => setFailed(true)}
    />
  );
}

/** A course in a grid: cover, title (the link), summary, lesson count; `footer` adds progress or a due date. */
export function CourseCard({
  course,
  footer,
  to = `/preview/${course.id}`,
}: {
  course: Pick<SiteCourse, 'id' | 'title' | 'cover'> & Partial<Pick<SiteCourse, 'summary' | 'lessonCount' | 'required' | 'categoryName'>>;
  footer?: ReactNode;
  to?: string;
}) {
  const { t } = useLocaleText();
  return (
    <article className="course-site-card">
      <CourseCoverImage cover={course.cover} title={course.title} />
      <div className="course-site-card__body">
        <h3 className="course-site-card__title">
          {/* The whole card is clickable through this link's ::after; the title is its name. */}
          <Link className="course-site-card__link" to={to}>
            {course.title}
          </Link>
        </h3>
        {course.summary !== undefined && course.summary !== null && course.summary !== '' && (
          <p className="course-site-card__summary">{course.summary}</p>
        )}
        <div className="course-site-card__meta">
          {course.required === true && <SiteTag tone="primary">{t('site.required')}</SiteTag>}
          {course.categoryName !== undefined && course.categoryName !== null && <SiteTag>{course.categoryName}</SiteTag>}
          {course.lessonCount !== undefined && <span>{t('site.lessons', { count: course.lessonCount })}</span>}
        </div>
        {footer}
      </div>
    </article>
  );
}
