import type { LessonProgress, SiteLesson } from '@cloud-classroom/shared/progress';
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { EmptyState } from '../../../components/site/empty-state';
import { ErrorState } from '../../../components/site/error-state';
import { LoadingSkeleton } from '../../../components/site/loading-skeleton';
import { ProgressBar } from '../../../components/site/progress-bar';
import { SiteShell } from '../../../components/site/site-shell';
import { SiteTag } from '../../../components/site/site-tag';
import { useDocumentTitle } from '../../../components/site/use-document-title';
import { HttpError } from '../../../lib/http-client';
import { useLocaleText, type LocaleText } from '../../../lib/use-locale-text';
import { LessonContent } from './lesson-content';
import { getSiteLesson, type LessonAnswer } from './play-api';
import { TextLesson } from './text-lesson';
import { VideoPlayer } from './video-player';
import './play-page.css';

// pdf.js is a few hundred KiB: it is fetched when a document lesson opens, never for a video or text.
const PdfLesson = lazy(async () => ({ default: (await import('./pdf-lesson')).PdfLesson }));

type PageState = { kind: 'loading' } | LessonAnswer | { kind: 'error'; error: unknown };

const ID_MAX = 2_147_483_647;

/** The `lesson` query parameter as an id, or undefined when it cannot be one (the page says "not found" without asking). */
export function lessonIdOf(value: string | null): number | undefined {
  if (value === null || !/^\d{1,10}$/.test(value)) return undefined;
  const id = Number(value);
  return id >= 1 && id <= ID_MAX ? id : undefined;
}

/**
 * The course to offer when a lesson is refused: the link that led here may name it
 * (`&course=`), else the server's refusal may (`… course 5 …`).
 */
export function courseOfRefusal(courseParam: string | null, message: string): number | undefined {
  return lessonIdOf(courseParam) ?? lessonIdOf(/\bcourse (\d+)\b/i.exec(message)?.[1] ?? null);
}

/**
 * `/play?lesson=…` (DESIGN §7): one lesson of a course, resumed where it stopped, with what the
 * server says of my progress in it after every report.
 */
export function PlayPage() {
  const { t } = useLocaleText();
  const [params] = useSearchParams();
  const lessonId = lessonIdOf(params.get('lesson'));
  // The answer is kept with the lesson it is for: while another lesson loads, the page shows loading.
  const [answer, setAnswer] = useState<{ lessonId: number; state: PageState }>();
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (lessonId === undefined) return;
    const abort = new AbortController();
    getSiteLesson(lessonId, abort.signal).then(
      (state) => setAnswer({ lessonId, state }),
      (error: unknown) => {
        if (abort.signal.aborted) return;
        setAnswer({ lessonId, state: { kind: 'error', error } });
      },
    );
    return () => abort.abort();
  }, [lessonId, attempt]);

  const state: PageState =
    lessonId === undefined ? { kind: 'not-found', message: '' } : answer?.lessonId === lessonId ? answer.state : { kind: 'loading' };

  useDocumentTitle(state.kind === 'lesson' ? state.lesson.title : t('play.title'));

  let body: ReactNode;
  if (state.kind === 'loading') body = <LoadingSkeleton lines={8} />;
  else if (state.kind === 'lesson') body = <LessonView key={state.lesson.id} lesson={state.lesson} />;
  else if (state.kind === 'forbidden') {
    const courseId = courseOfRefusal(params.get('course'), state.message);
    body = (
      <div role="alert">
        <EmptyState
          title={t('play.forbiddenTitle')}
          text={t('play.forbiddenText')}
          action={
            courseId === undefined ? (
              <Link className="button button--primary" to="/home">
                {t('play.backHome')}
              </Link>
            ) : (
              <Link className="button button--primary" to={`/preview/${courseId}`}>
                {t('play.openCourse')}
              </Link>
            )
          }
        />
      </div>
    );
  } else if (state.kind === 'not-found') body = <ErrorState error={new HttpError(404, state.message)} />;
  else {
    body = (
      <ErrorState
        error={state.error}
        onRetry={() => {
          setAnswer(undefined);
          setAttempt((count) => count + 1);
        }}
      />
    );
  }

  return (
    <SiteShell>
      <div className="play-page">{body}</div>
    </SiteShell>
  );
}

function LessonView({ lesson }: { lesson: SiteLesson }) {
  const { t } = useLocaleText();
  const [progress, setProgress] = useState<LessonProgress>(lesson.progress);
  const showNotes = lesson.type !== 'text' && lesson.content.trim() !== '';

  return (
    <article className="play-lesson">
      <nav className="play-breadcrumb" aria-label={t('play.breadcrumb')}>
        <ol>
          <li>
            <Link className="site-link" to={`/learning/${lesson.courseId}`}>
              {lesson.courseTitle}
            </Link>
          </li>
          <li>{lesson.chapterTitle}</li>
          <li aria-current="page">{lesson.title}</li>
        </ol>
      </nav>
      <div className="play-heading">
        <h1 className="site-page-title play-heading__title">{lesson.title}</h1>
        <ProgressSummary lesson={lesson} progress={progress} t={t} />
      </div>
      {lesson.type === 'video' && <VideoPlayer lesson={lesson} onResult={setProgress} />}
      {lesson.type === 'document' && (
        <Suspense fallback={<div className="play-document-loading" aria-busy="true" />}>
          <PdfLesson lesson={lesson} progress={progress} onResult={setProgress} />
        </Suspense>
      )}
      {lesson.type === 'text' && <TextLesson lesson={lesson} onResult={setProgress} />}
      {showNotes && (
        <section className="play-notes" aria-label={t('play.notes')}>
          <LessonContent html={lesson.content} />
        </section>
      )}
      <nav className="play-steps" aria-label={t('play.steps')}>
        {lesson.previousLessonId !== null && (
          <Link className="button" to={`/play?lesson=${lesson.previousLessonId}`} rel="prev">
            {`← ${t('play.previous')}`}
          </Link>
        )}
        {lesson.nextLessonId !== null ? (
          <Link className="button button--primary play-steps__next" to={`/play?lesson=${lesson.nextLessonId}`} rel="next">
            {`${t('play.next')} →`}
          </Link>
        ) : (
          <Link className="button play-steps__next" to={`/learning/${lesson.courseId}`}>
            {t('play.backToCourse')}
          </Link>
        )}
      </nav>
    </article>
  );
}

function ProgressSummary({ lesson, progress, t }: { lesson: SiteLesson; progress: LessonProgress; t: LocaleText }) {
  return (
    <div className="play-progress">
      <ProgressBar percent={progress.percent} />
      {progress.completed ? (
        <SiteTag tone="success">{t('play.completed')}</SiteTag>
      ) : (
        <span className="play-progress__goal">{t('play.goal', { percent: lesson.completionPercent })}</span>
      )}
    </div>
  );
}
