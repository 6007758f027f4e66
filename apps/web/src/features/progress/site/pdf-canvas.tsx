import { useEffect, useRef, useState } from 'react';
import { loadPdfJs, type PDFDocumentProxy, type RenderTask } from './pdf-loader';

/**
 * One page of a PDF from this site (`url`, loaded with the session cookie) on a canvas as wide as
 * its container, drawn at the screen's pixel density (text stays sharp on phones). pdf.js loads on
 * first use. The learner's document lesson, the lesson editor's preview and the certificate
 * template's preview show documents this way (a frame could not: every answer forbids framing).
 * Give it `key={url}`: another document starts from a fresh state.
 */
export function PdfCanvas({
  url,
  page,
  onPages,
  failedText,
}: {
  /** From `mediaContentUrl(id)` or another PDF route taking the session cookie. */
  url: string;
  page: number;
  /** The document's page count, once it has loaded. */
  onPages: (pages: number) => void;
  failedText: string;
}) {
  const [documentProxy, setDocumentProxy] = useState<PDFDocumentProxy>();
  const [failed, setFailed] = useState(false);
  const [width, setWidth] = useState(0);
  const canvas = useRef<HTMLCanvasElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const onPagesRef = useRef(onPages);
  useEffect(() => {
    onPagesRef.current = onPages;
  });

  useEffect(() => {
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
        onPagesRef.current(proxy.numPages);
      })
      .catch(() => {
        if (!cancelled) setFailed(true);
      });
    return () => {
      cancelled = true;
      destroy?.();
    };
  }, [url]);

  useEffect(() => {
    const element = box.current;
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
      .getPage(Math.min(Math.max(1, page), documentProxy.numPages))
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

  return (
    <div ref={box} className="pdf-canvas">
      {failed ? (
        <p className="play-notice play-notice--warning" role="alert">
          {failedText}
        </p>
      ) : (
        <canvas ref={canvas} className="pdf-lesson__canvas" aria-hidden={documentProxy === undefined} />
      )}
      {!failed && documentProxy === undefined && <div className="page-loading" aria-busy="true" />}
    </div>
  );
}
