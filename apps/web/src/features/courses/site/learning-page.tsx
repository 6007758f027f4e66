import type { MyCertificate } from '@cloud-classroom/shared/certificates';
import type { SiteExam } from '@cloud-classroom/shared/exams';
import type { SiteCourseDetail } from '@cloud-classroom/shared/progress';
import { Link, useParams } from 'react-router';
import { EmptyState } from '../../../components/site/empty-state';
import { ErrorState } from '../../../components/site/error-state';
import { LoadingSkeleton } from '../../../components/site/loading-skeleton';
import { ProgressRing } from '../../../components/site/progress-ring';
import { SiteShell } from '../../../components/site/site-shell';
import { SiteTag } from '../../../components/site/site-tag';
import { useDocumentTitle } from '../../../components/site/use-document-title';
import { useSiteData } from '../../../components/site/use-site-data';
import { HttpError } from '../../../lib/http-client';
import { useLocaleText } from '../../../lib/use-locale-text';
import { MyCertificates } from '../../certificates/site/my-certificates';
import { MyExams } from '../../exams/site/my-exams';
import { CourseOutline } from './course-outline';
import { idParam } from './id-param';
import './course-site.css';

function Chapters({ course }: { course: SiteCourseDetail }) {
  const { t } = useLocaleText();
  return (
    <CourseOutline
      course={course}
      withProgress
      empty={<EmptyState title={t('preview.noLessons')} />}
      tags={(lesson) => (
        <>
          {lesson.required && <SiteTag>{t('site.required')}</SiteTag>}
          {lesson.progress?.completed === true && <SiteTag tone="success">{t('site.status.completed')}</SiteTag>}
        </>
      )}
    />
  );
}

/** My certificates of the course: issued for one of its terms (mine among them) or one of its exams. */
function CourseCertificates({ course }: { course: SiteCourseDetail }) {
  const { t } = useLocaleText();
  const exams = useSiteData<SiteExam[]>('api/site/exams', { courseId: course.id });
  const termIds = new Set(course.terms.map((term) => term.id));
  if (course.enrolment !== null) termIds.add(course.enrolment.termId);
  const examIds = new Set((exams.data ?? []).map((exam) => exam.id));
  const belongs = (certificate: MyCertificate) =>
    (certificate.termId !== null && termIds.has(certificate.termId)) || (certificate.examId !== null && examIds.has(certificate.examId));
  return <MyCertificates emptyTitle={t('learning.certificateEmpty')} belongs={belongs} />;
}

/**
 * Studying a course (`/learning/{id}`): my progress in it and in each lesson, the way on to the
 * next lesson, my exams of the course, and my certificates of it.
 */
export function LearningPage() {
  const { t } = useLocaleText();
  const id = idParam(useParams().id);
  const course = useSiteData<SiteCourseDetail>(id === undefined ? undefined : `api/site/courses/${id}`);
  const detail = course.data;
  useDocumentTitle(detail?.title ?? t('site.myLearning'));

  let body;
  if (id === undefined) body = <ErrorState error={new HttpError(404, 'not found')} />;
  else if (detail === undefined && course.loading) body = <LoadingSkeleton lines={6} />;
  else if (detail === undefined) body = <ErrorState error={course.error} onRetry={course.reload} />;
  else {
    const { progress } = detail;
    const next = progress.nextLessonId;
    body = (
      <>
        <div className="course-site-hero course-site-hero--learning">
          <div className="course-site-progress">
            <ProgressRing percent={progress.percent} size={96} label={t('learning.progress')} />
            <div>
              <h1 className="course-site-hero__title">{detail.title}</h1>
              <p className="site-muted">
                {t('learning.lessonsDone', { done: progress.completedLessons, total: progress.requiredLessons })}
              </p>
              <div className="course-site-hero__meta">
                {detail.enrolment !== null && detail.enrolment.dueAt !== null && (
                  <SiteTag tone={detail.enrolment.overdue ? 'danger' : 'warning'}>
                    {detail.enrolment.overdue && `${t('site.overdue')} · `}
                    {t('site.due', { date: detail.enrolment.dueAt.slice(0, 10) })}
                  </SiteTag>
                )}
                {progress.completed && <SiteTag tone="success">{t('site.status.completed')}</SiteTag>}
                <Link className="site-link" to={`/preview/${detail.id}`}>
                  {t('learning.details')}
                </Link>
              </div>
            </div>
          </div>
          <div className="course-site-action">
            {!detail.mayStudy && <p className="site-notice site-notice--warning">{t('learning.notEnrolled')}</p>}
            {detail.mayStudy && next !== null && (
              <Link className="button button--primary button--large" to={`/play?lesson=${next}`}>
                {progress.percent > 0 || progress.completedLessons > 0 ? t('learning.continue') : t('learning.start')}
              </Link>
            )}
          </div>
        </div>
        <div className="course-site-layout">
          <section className="site-section" aria-labelledby="learning-outline">
            <h2 id="learning-outline" className="site-section__title site-section__title--spaced">
              {t('preview.outline')}
            </h2>
            <Chapters course={detail} />
          </section>
          <div>
            <section className="site-section" aria-labelledby="learning-exams">
              <h2 id="learning-exams" className="site-section__title site-section__title--spaced">
                {t('learning.exams')}
              </h2>
              <MyExams courseId={detail.id} emptyTitle={t('learning.examsEmpty')} />
            </section>
            <section className="site-section" aria-labelledby="learning-certificate">
              <h2 id="learning-certificate" className="site-section__title site-section__title--spaced">
                {t('learning.certificate')}
              </h2>
              <CourseCertificates course={detail} />
            </section>
          </div>
        </div>
      </>
    );
  }
  return <SiteShell>{body}</SiteShell>;
}
