import type { ProgressResult } from '@cloud-classroom/shared/progress';
import { useEffect, useRef, useState } from 'react';
import { postProgress } from './play-api';
import { ProgressReporter, type ReportSubject } from './progress-reporter';

export type ProgressReporterHookOptions = {
  lessonId: number;
  /** A video reports on play / pause itself; a page is studied while it is on screen. */
  subject: ReportSubject;
  onResult: (result: ProgressResult) => void;
};

/** What a player tells the lesson's reporter; safe to call before the reporter exists (the first render). */
export type ReporterControls = {
  /** Studying starts or goes on (play, a page turn); after a takeover, takes the lesson back. */
  start: () => void;
  /** Studying pauses: a report now, no timer. */
  stop: () => void;
  /** The video played on to `time` (see IntervalRecorder). */
  playedTo: (time: number) => void;
  /** A pause, seek or stall: the next position starts a new interval. */
  interrupt: () => void;
};

/**
 * The lesson's reporter for as long as the lesson is open, with what the page lifecycle asks of
 * it: a report that outlives the page when it is hidden or left, and for a page, studying only
 * while it is visible. `superseded` says another tab or device took over.
 */
export function useProgressReporter({ lessonId, subject, onResult }: ProgressReporterHookOptions) {
  const [superseded, setSuperseded] = useState(false);
  // Made in the effect (a StrictMode remount gets a fresh one); a start asked for before then waits for it.
  const reporter = useRef<ProgressReporter | undefined>(undefined);
  const startWhenReady = useRef(false);
  // The latest callbacks, without making a new reporter (a new session) on every render.
  const latest = useRef({ subject, onResult });
  useEffect(() => {
    latest.current = { subject, onResult };
  });
  const kind = subject.kind;

  useEffect(() => {
    const next = new ProgressReporter({
      subject:
        kind === 'video'
          ? { kind, position: () => (latest.current.subject.kind === 'video' ? latest.current.subject.position() : 0) }
          : { kind, page: () => (latest.current.subject.kind === 'page' ? latest.current.subject.page() : 1) },
      send: (report, options) => postProgress(lessonId, report, options),
      onResult: (result) => latest.current.onResult(result),
      onSuperseded: () => setSuperseded(true),
    });
    reporter.current = next;
    const visible = () => document.visibilityState === 'visible';
    if ((kind === 'page' && visible()) || startWhenReady.current) next.start();
    startWhenReady.current = false;

    const onVisibility = () => {
      if (kind === 'page') {
        if (visible()) {
          if (!next.isSuperseded) next.start();
        } else next.stop({ keepalive: true });
      } else if (!visible()) void next.report({ keepalive: true });
    };
    const onPageHide = () => {
      if (kind === 'page') next.stop({ keepalive: true });
      else void next.report({ keepalive: true });
    };
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('pagehide', onPageHide);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('pagehide', onPageHide);
      reporter.current = undefined;
      next.dispose();
    };
  }, [lessonId, kind]);

  const [controls] = useState<ReporterControls>(() => ({
    start: () => {
      setSuperseded(false);
      if (reporter.current === undefined) startWhenReady.current = true;
      else reporter.current.start();
    },
    stop: () => reporter.current?.stop(),
    playedTo: (time) => reporter.current?.recorder.playedTo(time),
    interrupt: () => reporter.current?.recorder.interrupt(),
  }));

  return { controls, superseded };
}
