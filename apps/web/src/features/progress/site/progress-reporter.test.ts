import type { ProgressReport, ProgressResult } from '@cloud-classroom/shared/progress';
import { REPORT_EVERY_SECONDS } from '@cloud-classroom/shared/progress-rules';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HttpError } from '../../../lib/http-client';
import { newSessionId, ProgressReporter, type SendReport } from './progress-reporter';

const result = (overrides: Partial<ProgressResult> = {}): ProgressResult => ({
  coveredSeconds: 0,
  percent: 0,
  completed: false,
  position: 0,
  pagesRead: [],
  acceptedSeconds: 0,
  superseded: false,
  ...overrides,
});

type Sent = { report: ProgressReport; keepalive: boolean };

/** A reporter whose server answers with `answer` (a result, or an error to throw), keeping what was sent. */
function setUp(kind: 'video' | 'page', answer: (report: ProgressReport) => ProgressResult | Error = () => result()) {
  const sent: Sent[] = [];
  const results: ProgressResult[] = [];
  const onSuperseded = vi.fn();
  let position = 0;
  let page = 1;
  let sessions = 0;
  const send: SendReport = (report, { keepalive }) => {
    sent.push({ report, keepalive });
    const answered = answer(report);
    return answered instanceof Error ? Promise.reject(answered) : Promise.resolve(answered);
  };
  const reporter = new ProgressReporter({
    subject: kind === 'video' ? { kind, position: () => position } : { kind, page: () => page },
    send,
    onResult: (next) => results.push(next),
    onSuperseded,
    newSessionId: () => `session-${++sessions}`,
  });
  return {
    reporter,
    sent,
    results,
    onSuperseded,
    /** Plays from `from` to `to` in quarter seconds. */
    play(from: number, to: number) {
      for (let time = from; time <= to + 1e-9; time += 0.25) reporter.recorder.playedTo(time);
      position = to;
    },
    turnTo(next: number) {
      page = next;
    },
  };
}

const intervalsOf = (sent: Sent) => ('intervals' in sent.report ? sent.report.intervals : undefined);

describe('the progress reporter', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('opens the session with an empty report when playback starts, then reports what was watched on a timer', async () => {
    const { reporter, sent, play } = setUp('video');
    reporter.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toEqual([{ report: { sessionId: 'session-1', intervals: [], position: 0 }, keepalive: false }]);

    play(0, 10);
    await vi.advanceTimersByTimeAsync(REPORT_EVERY_SECONDS * 1000);
    expect(sent).toHaveLength(2);
    expect(sent[1]?.report).toEqual({ sessionId: 'session-1', intervals: [[0, 10]], position: 10 });

    play(10, 20);
    await vi.advanceTimersByTimeAsync(REPORT_EVERY_SECONDS * 1000);
    expect(intervalsOf(sent[2]!)).toEqual([[10, 20]]);
  });

  it('reports at once on a pause and stops its timer until playback starts again', async () => {
    const { reporter, sent, play } = setUp('video');
    reporter.start();
    play(0, 4);
    reporter.stop();
    await vi.advanceTimersByTimeAsync(0);
    expect(sent.map(intervalsOf)).toEqual([[], [[0, 4]]]);
    await vi.advanceTimersByTimeAsync(REPORT_EVERY_SECONDS * 3000);
    expect(sent).toHaveLength(2);
  });

  it("sends one report for a pause followed by the end, and none for leaving a paused video with nothing new", async () => {
    const { reporter, sent, play } = setUp('video');
    reporter.start();
    play(0, 8);
    reporter.stop();
    reporter.stop();
    reporter.dispose();
    await vi.advanceTimersByTimeAsync(0);
    expect(sent.map(intervalsOf)).toEqual([[], [[0, 8]]]);
  });

  it('keeps intervals a report could not deliver and sends them again, merged with the next ones', async () => {
    let online = false;
    const { reporter, sent, results, play } = setUp('video', () => (online ? result({ acceptedSeconds: 1 }) : new HttpError(0, 'network')));
    reporter.start();
    play(0, 10);
    await vi.advanceTimersByTimeAsync(REPORT_EVERY_SECONDS * 1000);
    reporter.recorder.interrupt();
    play(30, 40);
    await vi.advanceTimersByTimeAsync(REPORT_EVERY_SECONDS * 1000);
    expect(sent.map(intervalsOf)).toEqual([[], [[0, 10]], [[0, 10], [30, 40]]]);
    expect(results).toEqual([]);

    online = true;
    play(40, 45);
    await vi.advanceTimersByTimeAsync(REPORT_EVERY_SECONDS * 1000);
    expect(intervalsOf(sent[3]!)).toEqual([
      [0, 10],
      [30, 45],
    ]);
    expect(results).toHaveLength(1);

    // Acknowledged: nothing is sent twice after that.
    play(45, 50);
    await vi.advanceTimersByTimeAsync(REPORT_EVERY_SECONDS * 1000);
    expect(intervalsOf(sent[4]!)).toEqual([[45, 50]]);
  });

  it('drops what the server refused (a 4xx would be refused again) but keeps what a 5xx lost', async () => {
    let failure: Error = new HttpError(400, 'intervals: bad');
    const { reporter, sent, play } = setUp('video', (report) => ('intervals' in report && report.intervals.length > 0 ? failure : result()));
    reporter.start();
    play(0, 5);
    await reporter.report();
    play(5, 8);
    await reporter.report();
    expect(sent.map(intervalsOf).slice(1)).toEqual([[[0, 5]], [[5, 8]]]);

    failure = new HttpError(503, 'unavailable');
    play(8, 9);
    await reporter.report();
    play(9, 10);
    await reporter.report();
    expect(sent.map(intervalsOf).slice(3)).toEqual([[[8, 9]], [[8, 10]]]);
  });

  it('when another playback takes over, says so once, stops reporting, and takes it back as a new session on the next start', async () => {
    let superseded = false;
    const { reporter, sent, onSuperseded, results, play } = setUp('video', () => result({ superseded }));
    reporter.start();
    play(0, 5);
    superseded = true;
    await vi.advanceTimersByTimeAsync(REPORT_EVERY_SECONDS * 1000);
    expect(onSuperseded).toHaveBeenCalledTimes(1);
    expect(reporter.isSuperseded).toBe(true);
    expect(results.at(-1)?.superseded).toBe(true);

    const before = sent.length;
    await vi.advanceTimersByTimeAsync(REPORT_EVERY_SECONDS * 3000);
    reporter.stop();
    await reporter.report();
    expect(sent).toHaveLength(before);

    superseded = false;
    reporter.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(sent.at(-1)?.report.sessionId).toBe('session-2');
    expect(reporter.isSuperseded).toBe(false);
    expect(onSuperseded).toHaveBeenCalledTimes(1);
  });

  it('sends a last report with keepalive when disposed, and nothing after', async () => {
    const { reporter, sent, play } = setUp('video');
    reporter.start();
    play(0, 3);
    reporter.dispose();
    await vi.advanceTimersByTimeAsync(REPORT_EVERY_SECONDS * 2000);
    expect(sent.at(-1)).toEqual({ report: { sessionId: 'session-1', intervals: [[0, 3]], position: 3 }, keepalive: true });
    const count = sent.length;
    reporter.start();
    await reporter.report();
    expect(sent).toHaveLength(count);
  });

  it('reports the page on screen at start, on a timer, and when asked after a page turn', async () => {
    const { reporter, sent, turnTo } = setUp('page', () => result({ pagesRead: [1] }));
    reporter.start();
    await vi.advanceTimersByTimeAsync(REPORT_EVERY_SECONDS * 1000);
    turnTo(2);
    reporter.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(sent.map((entry) => entry.report)).toEqual([
      { sessionId: 'session-1', page: 1 },
      { sessionId: 'session-1', page: 1 },
      { sessionId: 'session-1', page: 2 },
    ]);
    reporter.stop({ keepalive: true });
    await vi.advanceTimersByTimeAsync(REPORT_EVERY_SECONDS * 2000);
    expect(sent).toHaveLength(4);
    expect(sent[3]).toEqual({ report: { sessionId: 'session-1', page: 2 }, keepalive: true });
  });

  it('makes session ids the contract accepts, in secure contexts and outside them', () => {
    expect(newSessionId()).toMatch(/^[\w-]{8,64}$/);
    vi.stubGlobal('isSecureContext', false);
    try {
      expect(newSessionId()).toMatch(/^[0-9a-f]{32}$/);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
