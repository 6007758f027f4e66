import type { ProgressReport, ProgressResult } from '@cloud-classroom/shared/progress';
import {
  MAX_INTERVALS_PER_REPORT,
  mergeIntervals,
  REPORT_EVERY_SECONDS,
  uncoveredParts,
  type Interval,
} from '@cloud-classroom/shared/progress-rules';
import { HttpError } from '../../../lib/http-client';
import { IntervalRecorder } from './interval-recorder';

export type SendReport = (report: ProgressReport, options: { keepalive: boolean }) => Promise<ProgressResult>;

/** What is being studied: a video reports what was watched and where the playhead is, a page what is on screen. */
export type ReportSubject = { kind: 'video'; position: () => number } | { kind: 'page'; page: () => number };

export type ProgressReporterOptions = {
  subject: ReportSubject;
  send: SendReport;
  onResult: (result: ProgressResult) => void;
  /** Another playback of mine took over; this one stops reporting until `start()` takes it back. */
  onSuperseded: () => void;
  newSessionId?: () => string;
};

/**
 * One playback's id. `crypto.randomUUID` exists only in secure contexts, and a school's server
 * is often reached over plain http on its own network; `getRandomValues` works everywhere.
 */
export function newSessionId(): string {
  if (typeof crypto.randomUUID === 'function' && globalThis.isSecureContext) return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Sends a lesson's progress reports (DESIGN §10) for one page load: at once when studying starts
 * (which opens the server's clock for this session), every REPORT_EVERY_SECONDS while it goes on,
 * and whenever the caller says something happened (pause, page turn, leaving). The server
 * credits a report only with what the wall clock since the previous one allows, so reports are
 * small and frequent; intervals a report could not deliver go again, merged, with the next one.
 */
export class ProgressReporter {
  readonly recorder = new IntervalRecorder();
  private sessionId: string;
  private unacknowledged: Interval[] = [];
  private timer: ReturnType<typeof setInterval> | undefined;
  private superseded = false;
  private disposed = false;
  /** Reports sent and not yet answered. */
  private sending = 0;

  constructor(private readonly options: ProgressReporterOptions) {
    this.sessionId = (options.newSessionId ?? newSessionId)();
  }

  get isSuperseded(): boolean {
    return this.superseded;
  }

  /**
   * Studying starts (playback, a page opened or shown again): a report now and on a timer. After
   * another playback took over, starting again is a new session, which takes it back.
   */
  start(): void {
    if (this.disposed) return;
    if (this.superseded) {
      this.superseded = false;
      this.sessionId = (this.options.newSessionId ?? newSessionId)();
    }
    this.stopTimer();
    this.timer = setInterval(() => void this.report(), REPORT_EVERY_SECONDS * 1000);
    void this.report();
  }

  /**
   * Studying pauses (paused, ended, page hidden): what was watched goes now, and the timer stops.
   * Stopping again (a video's `ended` after its `pause`, `pagehide` after hiding) sends nothing
   * unless something is still to be said.
   */
  stop(options: { keepalive?: boolean } = {}): void {
    const running = this.timer !== undefined;
    this.recorder.interrupt();
    this.stopTimer();
    if (this.superseded) return;
    // Intervals a report now on its way carries are not news; ones a failed report kept are.
    const undelivered = this.unacknowledged.length > 0 && this.sending === 0;
    if (running || this.recorder.hasWatched() || undelivered) void this.report(options);
  }

  /** The page goes away (another lesson, closing the tab): a last report that outlives the page. */
  dispose(): void {
    if (this.disposed) return;
    this.stop({ keepalive: true });
    this.disposed = true;
  }

  /** Sends a report now. Never rejects: a failure keeps the watched intervals for the next one. */
  async report(options: { keepalive?: boolean } = {}): Promise<void> {
    if (this.disposed || this.superseded) return;
    const { subject } = this.options;
    let report: ProgressReport;
    let sent: Interval[] = [];
    if (subject.kind === 'video') {
      this.unacknowledged = mergeIntervals([...this.unacknowledged, ...this.recorder.take()]);
      sent = this.unacknowledged.slice(0, MAX_INTERVALS_PER_REPORT);
      report = { sessionId: this.sessionId, intervals: sent.map(([from, to]) => [from, to]), position: Math.max(0, subject.position()) };
    } else {
      report = { sessionId: this.sessionId, page: subject.page() };
    }
    this.sending += 1;
    try {
      const result = await this.options.send(report, { keepalive: options.keepalive ?? false });
      this.acknowledge(sent);
      if (result.superseded && !this.superseded) {
        this.superseded = true;
        this.stopTimer();
        this.options.onSuperseded();
      }
      this.options.onResult(result);
    } catch (error) {
      // A refusal (4xx) would be refused again; no answer (0) or a server failure may pass next time.
      if (error instanceof HttpError && error.status >= 400 && error.status < 500) this.acknowledge(sent);
    } finally {
      this.sending -= 1;
    }
  }

  private acknowledge(sent: readonly Interval[]): void {
    if (sent.length === 0) return;
    // Reports can overlap (a timer and a pause); only what this one carried is settled.
    this.unacknowledged = mergeIntervals(this.unacknowledged.flatMap((interval) => uncoveredParts(interval, sent)));
  }

  private stopTimer(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }
}
