import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UploadProgress } from '../../lib/upload-with-progress';
import { stubBrowser } from '../list-page/list-page-test-kit';
import { UploadProgressBar, useUploadProgress } from './upload-progress';

type Tracker = ReturnType<typeof useUploadProgress>;

function Dialog({ onTracker }: { onTracker: (tracker: Tracker) => void }) {
  const tracker = useUploadProgress();
  onTracker(tracker);
  return <UploadProgressBar percent={tracker.percent} label="Uploading" />;
}

/** An upload whose progress and end the test decides. */
function controlledUpload() {
  let report!: (progress: UploadProgress) => void;
  let settle!: (ok: boolean) => void;
  const run = (onProgress: (progress: UploadProgress) => void) =>
    new Promise<string>((resolve, reject) => {
      report = onProgress;
      settle = (ok) => (ok ? resolve('stored') : reject(new Error('refused')));
    });
  return { run, report: (percent: number) => act(() => report({ loaded: percent, total: 100, percent })), settle: (ok: boolean) => act(async () => settle(ok)) };
}

beforeEach(() => stubBrowser());
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('useUploadProgress', () => {
  it.each([
    ['sent', true],
    ['refused', false],
  ])('shows the bar from 0 while the bytes travel, moves it, and takes it away once the upload is %s', async (_case, ok) => {
    let tracker!: Tracker;
    render(<Dialog onTracker={(current) => (tracker = current)} />);
    expect(screen.queryByRole('progressbar')).toBeNull();
    const upload = controlledUpload();
    let outcome: Promise<string> = Promise.resolve('');
    act(() => {
      // What the dialog's submit gets back: the upload's answer, or its refusal.
      outcome = tracker.track(upload.run).catch((error: Error) => error.message);
    });
    expect(screen.getByRole('progressbar', { name: 'Uploading' }).getAttribute('aria-valuenow')).toBe('0');
    upload.report(40);
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('40');
    await upload.settle(ok);
    expect(await outcome).toBe(ok ? 'stored' : 'refused');
    expect(screen.queryByRole('progressbar')).toBeNull();
  });
});
