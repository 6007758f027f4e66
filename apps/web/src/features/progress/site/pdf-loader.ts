import type * as PdfJs from 'pdfjs-dist';

export type PdfJsModule = typeof PdfJs;
export type { PDFDocumentProxy, PDFDocumentLoadingTask, RenderTask } from 'pdfjs-dist';

let loading: Promise<PdfJsModule> | undefined;

/**
 * pdf.js, on first use, and its worker as a file of the app's own (the Content-Security-Policy
 * runs scripts and workers from the app's own files only). The legacy build: the modern one
 * calls APIs (Map#getOrInsertComputed) only the newest browsers have, and learners use
 * whatever their phone or their office's PC came with.
 */
export function loadPdfJs(): Promise<PdfJsModule> {
  loading ??= Promise.all([
    import('pdfjs-dist/legacy/build/pdf.mjs'),
    import('pdfjs-dist/legacy/build/pdf.worker.min.mjs?url'),
  ]).then(([pdfjs, worker]) => {
    pdfjs.GlobalWorkerOptions.workerSrc = worker.default;
    return pdfjs;
  });
  loading.catch(() => {
    // A failed chunk (a dropped connection) may load on the next try.
    loading = undefined;
  });
  return loading;
}
