import type { SiteExam } from '@cloud-classroom/shared/exams';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/site/empty-state';
import { ErrorState } from '../../../components/site/error-state';
import { LoadingSkeleton } from '../../../components/site/loading-skeleton';
import { SiteTag } from '../../../components/site/site-tag';
import { useSiteData } from '../../../components/site/use-site-data';
import { useLocaleText, type LocaleText } from '../../../lib/use-locale-text';
import { useNotificationPushes } from '../../notifications/site/notification-store';
import { ExamFacts } from './exam-facts';
import './exam-site.css';

/** The server's local `yyyy-mm-dd hh:mm:ss`, to the minute: exam windows are set to the minute. */
const toMinute = (time: string) => time.slice(0, 16);

/** What a push tells of my exams: they load again. */
const EXAM_KINDS = ['exam_assigned', 'exam_open', 'result_released'] as const;

function StateTag({ exam, t }: { exam: SiteExam; t: LocaleText }) {
  if (exam.state === 'upcoming') {
    return <SiteTag tone="warning">{exam.openAt === null ? t('myExams.upcoming') : t('myExams.opens', { time: toMinute(exam.openAt) })}</SiteTag>;
  }
  if (exam.state === 'open') {
    return <SiteTag tone="primary">{exam.closeAt === null ? t('myExams.open') : t('myExams.openUntil', { time: toMinute(exam.closeAt) })}</SiteTag>;
  }
  return <SiteTag>{t('myExams.closed')}</SiteTag>;
}


/** What I can do with the exam now: resume my running attempt, start one, see my results. */
function ExamActions({ exam, t }: { exam: SiteExam; t: LocaleText }) {
  const page = `/answer-exam?exam=${exam.id}`;
  const running = exam.openAttemptId !== null;
  const finished = exam.attemptsUsed - (running ? 1 : 0);
  const links: ReactNode[] = [];
  if (running) {
    links.push(
      <Link key="resume" className="button button--primary button--small" to={page}>
        {t('myExams.resume')}
      </Link>,
    );
  } else if (exam.state === 'open' && exam.attemptsLeft > 0) {
    links.push(
      <Link key="start" className="button button--primary button--small" to={page}>
        {t('myExams.start')}
      </Link>,
    );
  }
  if (finished > 0) {
    links.push(
      <Link key="results" className="button button--small" to={page}>
        {t('myExams.results')}
      </Link>,
    );
  }
  if (links.length === 0) return null;
  return (
    <div className="exam-site-card__actions" role="group" aria-label={t('myExams.actions', { title: exam.title })}>
      {links}
    </div>
  );
}

function ExamCard({ exam, withCourse }: { exam: SiteExam; withCourse: boolean }) {
  const { t } = useLocaleText();
  const titleId = `my-exam-${exam.id}`;
  return (
    <li className="site-card exam-site-card">
      <article aria-labelledby={titleId}>
        <h3 id={titleId} className="exam-site-card__title">
          {exam.title}
        </h3>
        {withCourse && exam.courseTitle !== null && <p className="exam-site-card__course site-muted">{t('myExams.course', { title: exam.courseTitle })}</p>}
        <p className="exam-site-card__tags">
          <StateTag exam={exam} t={t} />
          {exam.overdue && <SiteTag tone="danger">{t('site.overdue')}</SiteTag>}
        </p>
        <ExamFacts exam={exam} t={t} lead={exam.dueAt === null ? undefined : { term: t('myExams.due'), time: exam.dueAt }} />
        <ExamActions exam={exam} t={t} />
      </article>
    </li>
  );
}

/**
 * The published exams assigned to me (`courseId`: those of one course), with my window, limit
 * and attempts, and the way to sit it (`/answer-exam`): start, resume, or see my results.
 */
export function MyExams({ courseId, emptyTitle }: { courseId?: number; emptyTitle: string }) {
  const mine = useSiteData<SiteExam[]>('api/site/exams', courseId === undefined ? undefined : { courseId });
  useNotificationPushes(EXAM_KINDS, mine.reload);
  if (mine.loading && mine.data === undefined) return <LoadingSkeleton lines={3} />;
  if (mine.error !== undefined) return <ErrorState error={mine.error} onRetry={mine.reload} section />;
  const exams = mine.data ?? [];
  if (exams.length === 0) return <EmptyState title={emptyTitle} />;
  return (
    <ul className="exam-site-list">
      {exams.map((exam) => (
        <ExamCard key={exam.id} exam={exam} withCourse={courseId === undefined} />
      ))}
    </ul>
  );
}
