import type { MyCourse, MyStudy } from '@cloud-classroom/shared/progress';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/site/empty-state';
import { ErrorState } from '../../../components/site/error-state';
import { LoadingSkeleton } from '../../../components/site/loading-skeleton';
import { ProgressBar } from '../../../components/site/progress-bar';
import { SiteShell } from '../../../components/site/site-shell';
import { SiteTag, type TagTone } from '../../../components/site/site-tag';
import { useDocumentTitle } from '../../../components/site/use-document-title';
import { useSiteData } from '../../../components/site/use-site-data';
import { useLocaleText } from '../../../lib/use-locale-text';
import { useNotificationPushes } from '../../notifications/site/notification-store';
import { MyCertificates } from '../../certificates/site/my-certificates';
import { CourseCard } from '../../courses/site/course-card';
import { MyExams } from '../../exams/site/my-exams';
import { StudyChart, studyTime } from './study-chart';
import '../../courses/site/course-site.css';
import './user-site.css';

const STATUS_TONE: Record<MyCourse['status'], TagTone> = {
  applied: 'warning',
  approved: 'primary',
  rejected: 'danger',
  in_progress: 'primary',
  completed: 'success',
};

/** What a push tells of my courses: they load again. */
const COURSE_KINDS = ['course_assigned', 'enrolment_approved', 'enrolment_rejected'] as const;

function MyCourses() {
  const { t } = useLocaleText();
  const mine = useSiteData<MyCourse[]>('api/site/my/courses');
  useNotificationPushes(COURSE_KINDS, mine.reload);
  if (mine.loading && mine.data === undefined) return <LoadingSkeleton lines={3} />;
  if (mine.error !== undefined) return <ErrorState error={mine.error} onRetry={mine.reload} section />;
  const courses = mine.data ?? [];
  if (courses.length === 0) {
    return (
      <EmptyState
        title={t('userCenter.myCoursesEmpty')}
        action={
          <Link className="button button--primary" to="/home">
            {t('userCenter.browse')}
          </Link>
        }
      />
    );
  }
  return (
    <div className="site-grid">
      {courses.map((course) => (
        <CourseCard
          key={course.applicantId}
          course={{ id: course.courseId, title: course.title, cover: course.cover, required: course.required }}
          to={course.status === 'applied' || course.status === 'rejected' ? `/preview/${course.courseId}` : `/learning/${course.courseId}`}
          footer={
            <div className="course-site-card__footer">
              <span className="site-muted">{t('userCenter.term', { name: course.termName })}</span>
              <span>
                <SiteTag tone={STATUS_TONE[course.status]}>{t(`site.status.${course.status}`)}</SiteTag>{' '}
                {course.overdue && !course.progress.completed && <SiteTag tone="danger">{t('site.overdue')}</SiteTag>}{' '}
                {course.dueAt !== null && <span className="site-muted">{t('site.due', { date: course.dueAt.slice(0, 10) })}</span>}
              </span>
              {course.status !== 'applied' && course.status !== 'rejected' && <ProgressBar percent={course.progress.percent} label={course.title} />}
            </div>
          }
        />
      ))}
    </div>
  );
}

function StudyTime() {
  const { t } = useLocaleText();
  const study = useSiteData<MyStudy>('api/site/my/study', { days: 14 });
  if (study.loading) return <LoadingSkeleton lines={3} />;
  if (study.error !== undefined || study.data === undefined) return <ErrorState error={study.error} onRetry={study.reload} section />;
  const { todaySeconds, weekSeconds, totalSeconds, days } = study.data;
  return (
    <div className="site-card">
      <dl className="user-site-figures">
        <div>
          <dt>{t('userCenter.today')}</dt>
          <dd>{studyTime(t, todaySeconds)}</dd>
        </div>
        <div>
          <dt>{t('userCenter.thisWeek')}</dt>
          <dd>{studyTime(t, weekSeconds)}</dd>
        </div>
        <div>
          <dt>{t('userCenter.allTime')}</dt>
          <dd>{studyTime(t, totalSeconds)}</dd>
        </div>
      </dl>
      <h3 className="user-site-subtitle">{t('userCenter.last14Days')}</h3>
      <StudyChart days={days} />
    </div>
  );
}

/** My learning (`/user-center`): my courses with progress and status, my study time, my exams and my certificates. */
export function UserCenterPage() {
  const { t } = useLocaleText();
  useDocumentTitle(t('site.userCenter'));
  return (
    <SiteShell>
      <h1 className="site-page-title">{t('site.userCenter')}</h1>
      <section className="site-section" aria-labelledby="uc-study">
        <h2 id="uc-study" className="site-section__title site-section__title--spaced">
          {t('userCenter.studyTime')}
        </h2>
        <StudyTime />
      </section>
      <section className="site-section" aria-labelledby="uc-courses">
        <h2 id="uc-courses" className="site-section__title site-section__title--spaced">
          {t('userCenter.myCourses')}
        </h2>
        <MyCourses />
      </section>
      <div className="user-site-pair">
        <section className="site-section" aria-labelledby="uc-exams">
          <h2 id="uc-exams" className="site-section__title site-section__title--spaced">
            {t('userCenter.myExams')}
          </h2>
          <MyExams emptyTitle={t('userCenter.myExamsEmpty')} />
        </section>
        <section className="site-section" aria-labelledby="uc-certificates">
          <h2 id="uc-certificates" className="site-section__title site-section__title--spaced">
            {t('userCenter.myCertificates')}
          </h2>
          <MyCertificates emptyTitle={t('userCenter.myCertificatesEmpty')} />
        </section>
      </div>
    </SiteShell>
  );
}
