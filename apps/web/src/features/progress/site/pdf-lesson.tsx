import type { LessonProgress, ProgressResult, SiteLesson } from '@cloud-classroom/shared/progress';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useLocaleText } from '../../../lib/use-locale-text';
import { PdfCanvas } from './pdf-canvas';
import { mediaContentUrl } from './play-api';
import { SupersededNotice } from './text-lesson';
import { useProgressReporter } from './use-progress-reporter';

/** The page a document opens at: the saved one, within the document. */
export function startPage(saved: number, pages: number | null): number {
  const page = Math.floor(saved);
  if (!Number.isFinite(page) || page < 1) return 1;
  return pages !== null && pages > 0 ? Math.min(page, pages) : page;
}

/**
 * A document lesson: one page at a time (PdfCanvas), turned with buttons or the keyboard.
 * The page on screen is reported when it changes and while it stays; the server counts a page
 * read after its dwell, and says which pages are.
 */
export function PdfLesson({
  lesson,
  progress,
  onResult,
}: {
  lesson: SiteLesson;
  progress: LessonProgress;
  onResult: (result: ProgressResult) => void;
}) {
  const { t } = useLocaleText();
  const [page, setPage] = useState(() => startPage(progress.position, lesson.pages));
  const [loadedPages, setLoadedPages] = useState<number>();
  const pageRef = useRef(page);
  const pages = loadedPages ?? lesson.pages ?? 0;
  const { controls, superseded } = useProgressReporter({
    lessonId: lesson.id,
    subject: { kind: 'page', page: () => pageRef.current },
    onResult,
  });

  // A page turn is reported at once, and the timer starts over for the new page.
  useEffect(() => {
    if (pageRef.current === page) return;
    pageRef.current = page;
    if (!superseded && document.visibilityState === 'visible') controls.start();
  }, [page, controls, superseded]);

  const turn = (step: number) => setPage((current) => Math.min(Math.max(1, current + step), Math.max(1, pages)));

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === 'ArrowLeft' || event.key === 'PageUp') turn(-1);
    else if (event.key === 'ArrowRight' || event.key === 'PageDown') turn(1);
    else return;
    event.preventDefault();
  };

  const read = progress.pagesRead.length;
  return (
    <div className="pdf-lesson">
      <div className="pdf-lesson__bar">
        <button type="button" className="button" onClick={() => turn(-1)} disabled={page <= 1}>
          {t('play.previousPage')}
        </button>
        <span className="pdf-lesson__page" aria-live="polite">
          {t('play.pageOf', { page, total: pages || '…' })}
        </span>
        <button type="button" className="button" onClick={() => turn(1)} disabled={pages === 0 || page >= pages}>
          {t('play.nextPage')}
        </button>
        <span className="pdf-lesson__read">{t('play.pagesRead', { read, total: pages || '…' })}</span>
      </div>
      {superseded && <SupersededNotice onResume={controls.start} text={t('play.superseded')} action={t('play.continueHere')} />}
      <div className="pdf-lesson__column" tabIndex={0} aria-label={t('play.documentLabel', { page, total: pages || '…' })} onKeyDown={onKeyDown}>
        {lesson.mediaId !== null && (
          <PdfCanvas
            key={lesson.mediaId}
            url={mediaContentUrl(lesson.mediaId)}
            page={page}
            onPages={(count) => {
              setLoadedPages(count);
              setPage((current) => Math.min(current, count));
            }}
            failedText={t('play.documentError')}
          />
        )}
      </div>
      <p className="video-player__help">{t('play.pageKeys')}</p>
    </div>
  );
}
