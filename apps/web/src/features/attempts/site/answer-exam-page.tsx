import type { AttemptResult, MyAttempt } from '@cloud-classroom/shared/attempts';
import type { SiteExam } from '@cloud-classroom/shared/exams';
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { EmptyState } from '../../../components/site/empty-state';
import { ErrorState } from '../../../components/site/error-state';
import { LoadingSkeleton } from '../../../components/site/loading-skeleton';
import { SiteShell } from '../../../components/site/site-shell';
import { SiteTag } from '../../../components/site/site-tag';
import { useDocumentTitle } from '../../../components/site/use-document-title';
import { HttpError } from '../../../lib/http-client';
import { localizeMessage, useLocaleText, type LocaleText } from '../../../lib/use-locale-text';
import { getAttempt, getMyAttempts, getMyExams } from './attempt-api';
import { minuteOf } from './attempt-paper';
import type { AttemptSession } from './exam-taking';

const ExamTaking = lazy(async () => ({ default: (await import('./exam-taking')).ExamTaking }));
const AttemptResultView = lazy(async () => ({ default: (await import('./attempt-result-view')).AttemptResultView }));
import { ExamFacts } from '../../exams/site/exam-facts';
import './answer-exam.css';

const ID_MAX = 2_147_483_647;

/** A query parameter as an id, or undefined when it cannot be one (the page says "not found" without asking). */
export function idParamOf(value: string | null): number | undefined {
  if (value === null || !/^\d{1,10}$/.test(value)) return undefined;
  const id = Number(value);
  return id >= 1 && id <= ID_MAX ? id : undefined;
}

const messageOf = (error: unknown, language: Parameters<typeof localizeMessage>[0]) => (error instanceof Error ? localizeMessage(language, error.message) : '');

/**
 * `/answer-exam?exam=…` (DESIGN §7): the exam's page — what it asks, my attempts, and a start —
 * then the timed paper (resumed when one of my attempts is running); `/answer-exam?attempt=…`:
 * one attempt's result, as the exam's review policy allows.
 */
export function AnswerExamPage() {
  const { t } = useLocaleText();
  const [params] = useSearchParams();
  const examId = idParamOf(params.get('exam'));
  const attemptId = idParamOf(params.get('attempt'));
  let body: ReactNode;
  if (attemptId !== undefined) body = <ResultLoader key={`attempt-${attemptId}`} attemptId={attemptId} />;
  else if (examId !== undefined) body = <ExamHub key={`exam-${examId}`} examId={examId} />;
  else body = <ErrorState error={new HttpError(404, '')} />;
  useDocumentTitle(t('answerExam.title'));
  return (
    <SiteShell>
      <div className="answer-exam">{body}</div>
    </SiteShell>
  );
}

function ResultLoader({ attemptId }: { attemptId: number }) {
  const [answer, setAnswer] = useState<{ result?: AttemptResult; error?: unknown }>();
  const [round, setRound] = useState(0);
  useEffect(() => {
    const abort = new AbortController();
    getAttempt(attemptId, abort.signal).then(
      (result) => setAnswer({ result }),
      (error: unknown) => {
        if (!abort.signal.aborted) setAnswer({ error });
      },
    );
    return () => abort.abort();
  }, [attemptId, round]);
  if (answer === undefined) return <LoadingSkeleton lines={8} />;
  if (answer.result !== undefined) {
    return (
      <Suspense fallback={<LoadingSkeleton lines={8} />}>
        <AttemptResultView result={answer.result} />
      </Suspense>
    );
  }
  return (
    <ErrorState
      error={answer.error}
      onRetry={() => {
        setAnswer(undefined);
        setRound((count) => count + 1);
      }}
    />
  );
}

type HubState = { kind: 'loading' } | { kind: 'error'; error: unknown } | { kind: 'unassigned' } | { kind: 'ready'; exam: SiteExam; attempts: MyAttempt[] };

function ExamHub({ examId }: { examId: number }) {
  const { t } = useLocaleText();
  const [state, setState] = useState<HubState>({ kind: 'loading' });
  const [round, setRound] = useState(0);
  const [running, setRunning] = useState(false);

  useEffect(() => {
    const abort = new AbortController();
    Promise.all([getMyExams(abort.signal), getMyAttempts(examId, abort.signal).catch(() => [] as MyAttempt[])]).then(
      ([exams, attempts]) => {
        const exam = exams.find((item) => item.id === examId);
        if (exam === undefined) setState({ kind: 'unassigned' });
        else {
          setState({ kind: 'ready', exam, attempts });
          // My attempt is running (started here, on another device, or before a reload): back to it, same clock.
          if (exam.openAttemptId !== null || attempts.some((attempt) => attempt.state === 'in_progress')) setRunning(true);
        }
      },
      (error: unknown) => {
        if (!abort.signal.aborted) setState({ kind: 'error', error });
      },
    );
    return () => abort.abort();
  }, [examId, round]);

  if (running) return <AttemptRunner examId={examId} onBack={() => setRunning(false)} />;
  if (state.kind === 'loading') return <LoadingSkeleton lines={8} />;
  if (state.kind === 'error') {
    return (
      <ErrorState
        error={state.error}
        onRetry={() => {
          setState({ kind: 'loading' });
          setRound((count) => count + 1);
        }}
      />
    );
  }
  if (state.kind === 'unassigned') {
    return (
      <EmptyState
        title={t('answerExam.unassigned')}
        text={t('answerExam.unassignedText')}
        action={
          <Link className="button button--primary" to="/user-center">
            {t('answerExam.myExams')}
          </Link>
        }
      />
    );
  }
  return <ExamIntro exam={state.exam} attempts={state.attempts} onStart={() => setRunning(true)} t={t} />;
}

function ExamIntro({ exam, attempts, onStart, t }: { exam: SiteExam; attempts: MyAttempt[]; onStart: () => void; t: LocaleText }) {
  let action: ReactNode;
  if (exam.state === 'upcoming') action = <p className="site-notice site-notice--warning">{exam.openAt === null ? t('answerExam.notOpen') : t('answerExam.opensAt', { time: minuteOf(exam.openAt) })}</p>;
  else if (exam.state === 'closed') action = <p className="site-notice">{t('answerExam.closedExam')}</p>;
  else if (exam.attemptsLeft <= 0) action = <p className="site-notice">{t('answerExam.noAttemptsLeft')}</p>;
  else {
    action = (
      <div className="exam-intro__start">
        <p className="site-muted">{exam.limitMinutes === null ? t('answerExam.startNoLimit') : t('answerExam.startHint', { minutes: exam.limitMinutes })}</p>
        <button type="button" className="button button--primary" onClick={onStart}>
          {attempts.length === 0 ? t('answerExam.start') : t('answerExam.startAgain')}
        </button>
      </div>
    );
  }
  return (
    <article className="exam-intro" aria-labelledby="exam-intro-title">
      <h1 id="exam-intro-title" className="site-page-title">
        {exam.title}
      </h1>
      {exam.courseTitle !== null && <p className="site-muted">{t('myExams.course', { title: exam.courseTitle })}</p>}
      <div className="site-card exam-intro__card">
        {exam.description !== '' && <p className="exam-intro__description">{exam.description}</p>}
        <ExamFacts exam={exam} t={t} lead={exam.closeAt === null ? undefined : { term: t('answerExam.closesAt'), time: exam.closeAt }} />
        {action}
      </div>
      {attempts.length > 0 && (
        <section className="site-section exam-intro__attempts" aria-labelledby="exam-attempts-title">
          <h2 id="exam-attempts-title" className="site-section__title site-section__title--spaced">
            {t('answerExam.myAttempts')}
          </h2>
          <ul className="exam-attempts">
            {attempts.map((attempt) => (
              <li key={attempt.id} className="site-card exam-attempts__item">
                <span className="exam-attempts__name">{t('answerExam.attemptNumber', { number: attempt.number })}</span>
                <span className="site-muted">{minuteOf(attempt.submittedAt ?? attempt.startedAt)}</span>
                <AttemptTag attempt={attempt} t={t} />
                {attempt.counts && <SiteTag>{t('answerExam.counts')}</SiteTag>}
                {attempt.state !== 'in_progress' && (
                  <Link className="button button--small exam-attempts__link" to={`/answer-exam?attempt=${attempt.id}`}>
                    {t('answerExam.viewResult')}
                  </Link>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
    </article>
  );
}

function AttemptTag({ attempt, t }: { attempt: MyAttempt; t: LocaleText }) {
  if (attempt.state === 'in_progress') return <SiteTag tone="primary">{t('answerExam.stateRunning')}</SiteTag>;
  if (!attempt.released || attempt.score === null) return <SiteTag tone="warning">{t('answerExam.stateMarking')}</SiteTag>;
  return <SiteTag tone={attempt.passed === true ? 'success' : 'danger'}>{t(attempt.passed === true ? 'answerExam.scorePassed' : 'answerExam.scoreFailed', { score: attempt.score })}</SiteTag>;
}

type RunnerState = { kind: 'starting' } | { kind: 'refused'; error: unknown } | { kind: 'running'; session: AttemptSession };

/** Starts (or resumes) the attempt, restores what this browser had not sent, and runs the paper. */
function AttemptRunner({ examId, onBack }: { examId: number; onBack: () => void }) {
  const { t, language } = useLocaleText();
  const navigate = useNavigate();
  const [state, setState] = useState<RunnerState>({ kind: 'starting' });
  const [round, setRound] = useState(0);

  useEffect(() => {
    const abort = new AbortController();
    let made: AttemptSession | undefined;
    (async () => {
      // The paper's code (the queue, the offline store, the navigator) loads once an attempt runs: the exam's page before it stays light.
      const { openAttemptSession } = await import('./attempt-session');
      made = await openAttemptSession(examId, abort.signal);
      if (abort.signal.aborted) made.queue.dispose();
      else setState({ kind: 'running', session: made });
    })().catch((error: unknown) => {
      if (!abort.signal.aborted) setState({ kind: 'refused', error });
    });
    return () => {
      abort.abort();
      made?.queue.dispose();
    };
  }, [examId, round]);

  if (state.kind === 'starting') return <LoadingSkeleton lines={8} />;
  if (state.kind === 'running') {
    return (
      <Suspense fallback={<LoadingSkeleton lines={8} />}>
        <ExamTaking session={state.session} onSubmitted={(attemptId) => void navigate(`/answer-exam?attempt=${attemptId}`, { replace: true })} />
      </Suspense>
    );
  }
  const status = state.error instanceof HttpError ? state.error.status : 0;
  if (status === 404 || status === 403) {
    return <EmptyState title={t('answerExam.unassigned')} text={t('answerExam.unassignedText')} action={<Link className="button button--primary" to="/user-center">{t('answerExam.myExams')}</Link>} />;
  }
  if (status === 409 || status === 400) {
    return (
      <div role="alert">
        <EmptyState
          title={t('answerExam.cannotStart')}
          text={messageOf(state.error, language)}
          action={
            <button type="button" className="button" onClick={onBack}>
              {t('answerExam.examPage')}
            </button>
          }
        />
      </div>
    );
  }
  return (
    <ErrorState
      error={state.error}
      onRetry={() => {
        setState({ kind: 'starting' });
        setRound((count) => count + 1);
      }}
    />
  );
}
