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

/**
 * The lesson's reporter for as long as the lesson is open, with what the page lifecycle asks of
 * it: a report that outlives the page when it is hidden or left, and for a page, studying only
 * while it is visible. `superseded` says another tab or device took over.
 */
export function useProgressReporter({ lessonId, subject, onResult }: ProgressReporterHookOptions) {
  const [reporter, setReporter] = useState<ProgressReporter>();
  const [superseded, setSuperseded] = useState(false);
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
    setReporter(next);
    setSuperseded(false);
    const visible = () => document.visibilityState === 'visible';
    if (kind === 'page' && visible()) next.start();

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
      next.dispose();
    };
  }, [lessonId, kind]);

  /** Takes the lesson back from the other tab or device (a new session). */
  const resume = () => {
    setSuperseded(false);
    reporter?.start();
  };

  return { reporter, superseded, setSuperseded, resume };
}
