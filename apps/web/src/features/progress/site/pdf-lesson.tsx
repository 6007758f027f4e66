import type { LessonProgress, ProgressResult, SiteLesson } from '@cloud-classroom/shared/progress';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useLocaleText } from '../../../lib/use-locale-text';
import { mediaContentUrl } from './play-api';
import { loadPdfJs, type PDFDocumentProxy, type RenderTask } from './pdf-loader';
import { SupersededNotice } from './text-lesson';
import { useProgressReporter } from './use-progress-reporter';

/** The page a document opens at: the saved one, within the document. */
export function startPage(saved: number, pages: number | null): number {
  const page = Math.floor(saved);
  if (!Number.isFinite(page) || page < 1) return 1;
  return pages !== null && pages > 0 ? Math.min(page, pages) : page;
}

/**
 * A document lesson: one page at a time on a canvas as wide as the column (drawn at the
 * screen's pixel density, so text stays sharp on phones), turned with buttons or the keyboard.
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
  const [documentProxy, setDocumentProxy] = useState<PDFDocumentProxy>();
  const [failed, setFailed] = useState(false);
  const [page, setPage] = useState(() => startPage(progress.position, lesson.pages));
  const [width, setWidth] = useState(0);
  const pageRef = useRef(page);
  const canvas = useRef<HTMLCanvasElement>(null);
  const column = useRef<HTMLDivElement>(null);
  const pages = documentProxy?.numPages ?? lesson.pages ?? 0;
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

  useEffect(() => {
    if (lesson.mediaId === null) return;
    const url = mediaContentUrl(lesson.mediaId);
    let cancelled = false;
    let destroy: (() => void) | undefined;
    loadPdfJs()
      .then((pdfjs) => {
        if (cancelled) return undefined;
        const task = pdfjs.getDocument({
          url,
          // The policy forbids eval (fonts are drawn without compiled glyphs) and WebAssembly
          // (image decoders fall back to JavaScript); trying either would log a violation.
          isEvalSupported: false,
          useWasm: false,
          verbosity: pdfjs.VerbosityLevel.ERRORS,
        });
        destroy = () => void task.destroy();
        return task.promise;
      })
      .then((proxy) => {
        if (proxy === undefined || cancelled) return;
        setDocumentProxy(proxy);
        setPage((current) => Math.min(current, proxy.numPages));
      })
      .catch(() => {
        if (!cancelled) setFailed(true);
      });
    return () => {
      cancelled = true;
      destroy?.();
    };
  }, [lesson.mediaId]);

  useEffect(() => {
    const element = column.current;
    if (element === null) return;
    setWidth(element.clientWidth);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry !== undefined) setWidth(Math.floor(entry.contentRect.width));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const target = canvas.current;
    if (documentProxy === undefined || target === null || width <= 0) return;
    let task: RenderTask | undefined;
    let cancelled = false;
    void documentProxy
      .getPage(page)
      .then((pdfPage) => {
        if (cancelled) return;
        const natural = pdfPage.getViewport({ scale: 1 });
        const viewport = pdfPage.getViewport({ scale: width / natural.width });
        const density = window.devicePixelRatio || 1;
        target.width = Math.floor(viewport.width * density);
        target.height = Math.floor(viewport.height * density);
        target.style.width = `${Math.floor(viewport.width)}px`;
        target.style.height = `${Math.floor(viewport.height)}px`;
        task = pdfPage.render({
          canvas: target,
          viewport,
          transform: density === 1 ? undefined : [density, 0, 0, density, 0, 0],
        });
        return task.promise;
      })
      // A render cancelled by the next page turn or resize is not a failure.
      .catch(() => {});
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [documentProxy, page, width]);

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
      <div
        ref={column}
        className="pdf-lesson__column"
        tabIndex={0}
        aria-label={t('play.documentLabel', { page, total: pages || '…' })}
        onKeyDown={onKeyDown}
      >
        {failed ? (
          <p className="play-notice play-notice--warning" role="alert">
            {t('play.documentError')}
          </p>
        ) : (
          <canvas ref={canvas} className="pdf-lesson__canvas" aria-hidden={documentProxy === undefined} />
        )}
        {!failed && documentProxy === undefined && <div className="page-loading" aria-busy="true" />}
      </div>
      <p className="video-player__help">{t('play.pageKeys')}</p>
    </div>
  );
}
