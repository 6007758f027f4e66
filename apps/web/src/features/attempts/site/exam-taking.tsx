import type { AttemptResponse, AttemptStart } from '@cloud-classroom/shared/attempts';
import { keyAtLabel } from '@cloud-classroom/shared/attempt-rules';
import { useCallback, useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { HttpError } from '../../../lib/http-client';
import { localizeMessage, useLocaleText } from '../../../lib/use-locale-text';
import { QuestionView, type QuestionViewResponse } from '../../questions/site/question-view';
import type { AnswerQueue } from './answer-queue';
import { submitAttempt } from './attempt-api';
import { clockOf, formatRemaining, isAnswered, paperOfAttempt, remainingAt } from './attempt-paper';
import type { EventBuffer } from './event-buffer';
import { QuestionNavigator } from './question-navigator';

/** A started (or resumed) attempt with its save queue and event buffer, ready to answer. */
export type AttemptSession = {
  start: AttemptStart;
  /** `performance.now()` when the start answer arrived: the countdown runs from there. */
  receivedAt: number;
  queue: AnswerQueue;
  events: EventBuffer;
  /** The server's answers with the newer ones this browser had not sent yet. */
  responses: ReadonlyMap<number, AttemptResponse>;
  /** Whether unsent answers survive a reload (IndexedDB opened). */
  durable: boolean;
};

/** Typing is sent once it pauses; a click at once. */
const TEXT_DEBOUNCE_MS = 800;
const EVENT_FLUSH_MS = 15_000;
const TICK_MS = 250;

const flagsKey = (attemptId: number) => `cc-attempt-flags-${attemptId}`;

function readFlags(attemptId: number): Set<number> {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(flagsKey(attemptId)) ?? '[]');
    return new Set(Array.isArray(stored) ? stored.filter((id): id is number => typeof id === 'number') : []);
  } catch {
    return new Set();
  }
}

/** Keys typed into a field are the learner's text, never a shortcut. */
function isTextEntry(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && !['radio', 'checkbox', 'button', 'submit'].includes(target.type);
}

function useOnline(): boolean {
  return useSyncExternalStore(
    (changed) => {
      window.addEventListener('online', changed);
      window.addEventListener('offline', changed);
      return () => {
        window.removeEventListener('online', changed);
        window.removeEventListener('offline', changed);
      };
    },
    () => navigator.onLine,
  );
}

type Phase = 'answering' | 'submitting' | 'time-up';

/**
 * The paper of a running attempt, one question at a time: the countdown from the server's
 * deadline, the navigator, every answer saved as it changes (and kept in the browser while
 * offline), and the submission, by the learner or when time is up.
 */
export function ExamTaking({ session, onSubmitted }: { session: AttemptSession; onSubmitted: (attemptId: number) => void }) {
  const { t, language } = useLocaleText();
  const { start, queue, events } = session;
  const questions = start.questions;
  const [responses, setResponses] = useState<Map<number, AttemptResponse>>(() => new Map(session.responses));
  const [current, setCurrent] = useState(0);
  const [flagged, setFlagged] = useState<Set<number>>(() => readFlags(start.id));
  // No deadline (no limit, no window close): nothing counts down.
  const [remaining, setRemaining] = useState(() => (start.remainingMs === null ? Infinity : remainingAt(start.remainingMs, session.receivedAt, performance.now())));
  const [phase, setPhase] = useState<Phase>(() => (remaining <= 0 ? 'time-up' : 'answering'));
  const [confirming, setConfirming] = useState(false);
  const [submitProblem, setSubmitProblem] = useState<string>();
  const [navOpen, setNavOpen] = useState(false);
  const status = useSyncExternalStore(
    (changed) => queue.subscribe(changed),
    () => queue.status(),
  );
  const online = useOnline();
  const question = questions[current];
  const currentId = question?.id ?? null;
  // The integrity listeners name the question shown when something happened.
  const currentIdRef = useRef(currentId);
  useEffect(() => {
    currentIdRef.current = currentId;
  }, [currentId]);

  // Seconds spent on each question, handed over with its next save (the report's time per question).
  const timeSpent = useRef({ questionId: null as number | null, since: 0, seconds: new Map<number, number>() });
  useEffect(() => {
    const spent = timeSpent.current;
    if (spent.questionId !== null) spent.seconds.set(spent.questionId, (spent.seconds.get(spent.questionId) ?? 0) + (performance.now() - spent.since) / 1000);
    spent.questionId = currentId;
    spent.since = performance.now();
  }, [currentId]);
  const takeSeconds = (questionId: number): number => {
    const spent = timeSpent.current;
    let seconds = spent.seconds.get(questionId) ?? 0;
    if (spent.questionId === questionId) {
      seconds += (performance.now() - spent.since) / 1000;
      spent.since = performance.now();
    }
    const whole = Math.floor(seconds);
    spent.seconds.set(questionId, seconds - whole);
    return Math.min(whole, 86_400);
  };

  const accepting = phase === 'answering' && !status.closed;

  const answer = (questionId: number, type: string, response: QuestionViewResponse) => {
    if (!accepting) return;
    setResponses((previous) => new Map(previous).set(questionId, response));
    queue.change(questionId, response, { debounceMs: type === 'blank' || type === 'short' ? TEXT_DEBOUNCE_MS : 0, seconds: takeSeconds(questionId) });
  };

  const go = useCallback(
    (index: number) => {
      setCurrent(Math.max(0, Math.min(questions.length - 1, index)));
      setNavOpen(false);
    },
    [questions.length],
  );

  const toggleFlag = (questionId: number) => {
    setFlagged((previous) => {
      const next = new Set(previous);
      if (!next.delete(questionId)) next.add(questionId);
      try {
        localStorage.setItem(flagsKey(start.id), JSON.stringify([...next]));
      } catch {
        // Storage full or refused: the flag still shows for this visit.
      }
      return next;
    });
  };

  // The countdown: the server's remaining time less what this page's monotonic clock has counted.
  useEffect(() => {
    const { remainingMs } = start;
    if (remainingMs === null) return undefined;
    const timer = setInterval(() => setRemaining(remainingAt(remainingMs, session.receivedAt, performance.now())), TICK_MS);
    return () => clearInterval(timer);
  }, [start, session.receivedAt]);

  const submit = useCallback(
    async (byTimeout: boolean) => {
      setSubmitProblem(undefined);
      const flushed = await queue.flush();
      if (flushed === 'offline' && !byTimeout) {
        setConfirming(false);
        setPhase('answering');
        setSubmitProblem(t('answerExam.submitOffline', { count: queue.status().pending }));
        return;
      }
      await events.flush().catch(() => false);
      try {
        await submitAttempt(start.id);
        onSubmitted(start.id);
      } catch (error) {
        // 409: already submitted (by the server at the deadline, or on another device): its result is what is left to show.
        if (error instanceof HttpError && error.status === 409) {
          onSubmitted(start.id);
          return;
        }
        setConfirming(false);
        if (!byTimeout) setPhase('answering');
        setSubmitProblem(
          error instanceof HttpError && error.status === 0 ? t('answerExam.submitNoNetwork') : t('answerExam.submitFailed', { message: error instanceof Error ? localizeMessage(language, error.message) : '' }),
        );
      }
    },
    [events, language, onSubmitted, queue, start.id, t],
  );

  // Time is up: input stops, what is pending goes out, and the attempt is submitted.
  const timeUpHandled = useRef(false);
  useEffect(() => {
    if (remaining > 0 || timeUpHandled.current) return;
    timeUpHandled.current = true;
    setPhase('time-up');
    setConfirming(false);
    void submit(true);
  }, [remaining, submit]);

  // Integrity signals, and the network coming back.
  useEffect(() => {
    let fullscreen = document.fullscreenElement !== null;
    const record = (type: Parameters<EventBuffer['record']>[0], detail?: string) => events.record(type, currentIdRef.current, detail);
    const onVisibility = () => {
      record(document.visibilityState === 'hidden' ? 'hidden' : 'visible');
      if (document.visibilityState === 'visible') void events.flush();
    };
    const onBlur = () => record('blur');
    const onFocus = () => record('focus');
    const onFullscreen = () => {
      const now = document.fullscreenElement !== null;
      if (fullscreen && !now) record('fullscreen_exit');
      fullscreen = now;
    };
    const onPaste = (event: ClipboardEvent) => record('paste', `${event.clipboardData?.getData('text').length ?? 0} characters`);
    const onOffline = () => record('offline');
    const onOnline = () => {
      record('online');
      queue.retryNow();
      void events.flush();
    };
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('blur', onBlur);
    window.addEventListener('focus', onFocus);
    document.addEventListener('fullscreenchange', onFullscreen);
    document.addEventListener('paste', onPaste);
    window.addEventListener('offline', onOffline);
    window.addEventListener('online', onOnline);
    const flusher = setInterval(() => void events.flush(), EVENT_FLUSH_MS);
    void events.flush();
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('blur', onBlur);
      window.removeEventListener('focus', onFocus);
      document.removeEventListener('fullscreenchange', onFullscreen);
      document.removeEventListener('paste', onPaste);
      window.removeEventListener('offline', onOffline);
      window.removeEventListener('online', onOnline);
      clearInterval(flusher);
    };
  }, [events, queue]);

  // Keys: ←/→ or J/K move between questions, a digit or an option's letter picks it; never while typing or in a dialog.
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || confirming) return;
      if (isTextEntry(event.target) || (event.target instanceof HTMLElement && event.target.closest('[role="dialog"]') !== null)) return;
      const onChoice = event.target instanceof HTMLInputElement;
      const key = event.key.length === 1 ? event.key.toUpperCase() : event.key;
      const choices = question === undefined ? [] : question.type === 'judge' ? ['T', 'F'] : question.type === 'single' || question.type === 'multiple' ? question.options.map((option) => option.key as string) : [];
      let picked: string | undefined;
      if (/^[0-9]$/.test(key)) picked = choices[(Number(key) + 9) % 10];
      // T and F are true or false's own; an option's letter is the one on the screen, not its key.
      else if (question?.type === 'judge') picked = choices.includes(key) ? key : undefined;
      else picked = keyAtLabel(choices, key);
      if (picked !== undefined && question !== undefined) {
        event.preventDefault();
        if (question.type === 'multiple') {
          const now = responses.get(question.id);
          const list = Array.isArray(now) ? now : [];
          const next = list.includes(picked) ? list.filter((item) => item !== picked) : [...list, picked].sort();
          answer(question.id, question.type, next.length === 0 ? null : next);
        } else answer(question.id, question.type, picked);
        return;
      }
      // On a radio button the arrows are the browser's (they move the choice).
      if (((key === 'ArrowLeft' || key === 'ArrowUp') && !onChoice) || key === 'K') {
        event.preventDefault();
        go(current - 1);
      } else if (((key === 'ArrowRight' || key === 'ArrowDown') && !onChoice) || key === 'J') {
        event.preventDefault();
        go(current + 1);
      } else if (key === 'Escape' && navOpen) setNavOpen(false);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  });

  const unanswered = questions.flatMap((item, index) => (isAnswered(responses.get(item.id)) ? [] : [index + 1]));
  const offline = !online || status.offline;
  const low = remaining > 0 && remaining <= 5 * 60_000;

  const clock = (
    <div className={`exam-clock${low ? ' exam-clock--low' : ''}`}>
      <span className="exam-clock__label">{t('answerExam.remaining')}</span>
      <span className="exam-clock__time" role="timer" aria-live="off">
        {start.deadline === null ? t('answerExam.noLimit') : formatRemaining(remaining)}
      </span>
      {start.deadline !== null && <span className="exam-clock__deadline site-muted">{t('answerExam.endsAt', { time: clockOf(start.deadline) })}</span>}
    </div>
  );

  let saveText: string;
  if (status.closed) saveText = t('answerExam.closed');
  else if (status.pending > 0 && offline) saveText = t('answerExam.pendingOffline', { count: status.pending });
  else if (status.pending > 0) saveText = t('answerExam.saving');
  else if (status.savedAt !== undefined) saveText = t('answerExam.savedAt', { time: clockOf(status.savedAt) });
  else saveText = t('answerExam.noChanges');
  const saveState = <p className={`exam-save${status.pending > 0 && offline ? ' exam-save--offline' : ''}`}>{saveText}</p>;

  let notice: ReactNode;
  if (phase === 'time-up' || status.closed) {
    notice = (
      <p className="site-notice site-notice--warning" role="alert">
        {t('answerExam.timeUp')}
      </p>
    );
  } else if (offline) {
    notice = (
      <p className="site-notice site-notice--warning" role="alert">
        {t(session.durable ? 'answerExam.offline' : 'answerExam.offlineVolatile')}
      </p>
    );
  }

  return (
    <div className="exam-taking">
      <header className="exam-taking__head">
        <h1 className="site-page-title exam-taking__title">{start.title}</h1>
        <p className="site-muted exam-taking__facts">
          {t('answerExam.attemptOf', { number: start.number, allowed: start.attemptsAllowed })} · {t('answerExam.totalScore', { score: start.totalScore, pass: start.passScore })}
        </p>
      </header>
      <div className="exam-taking__notices" aria-live="polite">
        {notice}
        {submitProblem !== undefined && (
          <p className="site-notice site-notice--danger" role="alert">
            {submitProblem}
          </p>
        )}
        {status.rejected.length > 0 && (
          <p className="site-notice site-notice--danger" role="alert">
            {t('answerExam.rejected', { numbers: status.rejected.map((id) => questions.findIndex((item) => item.id === id) + 1).join(', ') })}
          </p>
        )}
      </div>
      <div className="exam-taking__body">
        <section className="exam-taking__paper" aria-label={t('answerExam.paper')}>
          {question !== undefined && (
            <>
              {question.section !== '' && <h2 className="exam-taking__section">{question.section}</h2>}
              <fieldset className="exam-taking__question" disabled={!accepting}>
                <QuestionView
                  key={question.id}
                  question={paperOfAttempt(question)}
                  index={current + 1}
                  response={responses.get(question.id) ?? null}
                  onChange={(response) => answer(question.id, question.type, response)}
                />
              </fieldset>
              <div className="exam-taking__tools">
                <button type="button" className="button button--small exam-flag" aria-pressed={flagged.has(question.id)} onClick={() => toggleFlag(question.id)}>
                  <span aria-hidden="true">⚑ </span>
                  {t(flagged.has(question.id) ? 'answerExam.unflag' : 'answerExam.flag')}
                </button>
              </div>
              <div className="exam-taking__steps">
                <button type="button" className="button" onClick={() => go(current - 1)} disabled={current === 0}>
                  {`← ${t('answerExam.previous')}`}
                </button>
                <span className="site-muted exam-taking__position">{t('answerExam.position', { number: current + 1, total: questions.length })}</span>
                {current < questions.length - 1 ? (
                  <button type="button" className="button button--primary" onClick={() => go(current + 1)}>
                    {`${t('answerExam.next')} →`}
                  </button>
                ) : (
                  <button type="button" className="button button--primary" onClick={() => setConfirming(true)} disabled={phase !== 'answering'}>
                    {t('answerExam.submit')}
                  </button>
                )}
              </div>
            </>
          )}
        </section>
        <aside className={`exam-panel${navOpen ? ' exam-panel--open' : ''}`} id="exam-panel" aria-label={t('answerExam.panel')}>
          <div className="exam-panel__clock">{clock}</div>
          {saveState}
          <QuestionNavigator questions={questions} responses={responses} flagged={flagged} current={current} onPick={go} />
          <button type="button" className="button button--primary exam-panel__submit" onClick={() => setConfirming(true)} disabled={phase !== 'answering'}>
            {t('answerExam.submit')}
          </button>
          <p className="exam-panel__keys site-muted">{t('answerExam.keys')}</p>
        </aside>
      </div>
      <div className="exam-bar">
        {clock}
        <button type="button" className="button exam-bar__toggle" aria-expanded={navOpen} aria-controls="exam-panel" onClick={() => setNavOpen((open) => !open)}>
          {t('answerExam.answeredOf', { answered: questions.length - unanswered.length, total: questions.length })}
        </button>
      </div>
      <ConfirmDialog
        open={confirming}
        title={t('answerExam.confirmTitle')}
        text={
          unanswered.length === 0
            ? t('answerExam.confirmAll')
            : t('answerExam.confirmUnanswered', { count: unanswered.length, numbers: unanswered.join(', ') })
        }
        confirmLabel={t('answerExam.submit')}
        cancelLabel={t('answerExam.keepAnswering')}
        busy={phase === 'submitting'}
        onConfirm={() => {
          setPhase('submitting');
          void submit(false);
        }}
        onCancel={() => setConfirming(false)}
      />
    </div>
  );
}
