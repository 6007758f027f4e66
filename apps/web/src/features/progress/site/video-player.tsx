import type { ProgressResult, SiteLesson } from '@cloud-classroom/shared/progress';
import { SKIP_TOLERANCE_SECONDS } from '@cloud-classroom/shared/progress-rules';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useLocaleText } from '../../../lib/use-locale-text';
import { mediaContentUrl } from './play-api';
import { useProgressReporter } from './use-progress-reporter';

const RATE_STEPS = [0.75, 1, 1.25, 1.5, 1.75, 2, 2.5, 3, 4];
/** A saved position this close to the end starts the video over: resuming there would end it at once. */
const RESTART_NEAR_END_SECONDS = 5;
const SEEK_STEP_SECONDS = 5;
const VOLUME_STEP = 0.1;

/** The speeds offered: the usual steps up to the course's cap, and the cap itself. */
export function playbackRates(cap: number): number[] {
  const limit = cap > 0 ? cap : 1;
  const rates = RATE_STEPS.filter((rate) => rate <= limit);
  if (!rates.includes(limit)) rates.push(limit);
  return rates.sort((a, b) => a - b);
}

/** Where a video opens: the saved position, unless it is (nearly) at the end. */
export function resumePosition(saved: number, duration: number): number {
  if (!Number.isFinite(duration) || duration <= 0) return Math.max(0, saved);
  return saved > 0 && saved < duration - RESTART_NEAR_END_SECONDS ? saved : 0;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/**
 * A video lesson: the browser's own player (small, accessible, works on phones), with the course's
 * speed cap and, where skipping is not allowed, seeks past what was watched pulled back. Both are
 * courtesies: the server credits only what the wall clock allows and never a skip.
 */
export function VideoPlayer({ lesson, onResult }: { lesson: SiteLesson; onResult: (result: ProgressResult) => void }) {
  const { t } = useLocaleText();
  const video = useRef<HTMLVideoElement>(null);
  const frame = useRef<HTMLDivElement>(null);
  const rates = playbackRates(lesson.maxPlaybackRate);
  const cap = rates.at(-1) ?? 1;
  const [rate, setRate] = useState(1);
  const [notice, setNotice] = useState<'no-skip' | undefined>();
  // The furthest point watched, for the no-skipping courtesy; the server keeps the real one.
  const furthest = useRef(
    lesson.allowSkip || lesson.progress.completed ? Number.POSITIVE_INFINITY : Math.max(lesson.progress.position, lesson.progress.coveredSeconds),
  );
  const { controls, superseded } = useProgressReporter({
    lessonId: lesson.id,
    subject: { kind: 'video', position: () => video.current?.currentTime ?? 0 },
    onResult,
  });

  useEffect(() => {
    if (superseded) video.current?.pause();
  }, [superseded]);

  const element = () => video.current;

  const togglePlay = () => {
    const el = element();
    if (!el) return;
    if (el.paused) el.play().catch(() => {});
    else el.pause();
  };

  const changeRate = (next: number) => {
    const el = element();
    if (el) el.playbackRate = clamp(next, rates[0] ?? 1, cap);
  };

  const stepRate = (direction: 1 | -1) => {
    const index = rates.findIndex((candidate) => candidate >= rate - 1e-9);
    const next = rates[clamp((index === -1 ? rates.length - 1 : index) + direction, 0, rates.length - 1)];
    if (next !== undefined) changeRate(next);
  };

  const toggleFullscreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => {});
    else void frame.current?.requestFullscreen?.().catch(() => {});
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const el = element();
    if (!el || event.ctrlKey || event.metaKey || event.altKey) return;
    switch (event.key) {
      case ' ':
      case 'k':
      case 'K':
        togglePlay();
        break;
      case 'ArrowLeft':
        el.currentTime = Math.max(0, el.currentTime - SEEK_STEP_SECONDS);
        break;
      case 'ArrowRight':
        el.currentTime = Math.min(Number.isFinite(el.duration) ? el.duration : el.currentTime + SEEK_STEP_SECONDS, el.currentTime + SEEK_STEP_SECONDS);
        break;
      case 'ArrowUp':
        el.volume = clamp(el.volume + VOLUME_STEP, 0, 1);
        break;
      case 'ArrowDown':
        el.volume = clamp(el.volume - VOLUME_STEP, 0, 1);
        break;
      case 'f':
      case 'F':
        toggleFullscreen();
        break;
      case '>':
        stepRate(1);
        break;
      case '<':
        stepRate(-1);
        break;
      default:
        return;
    }
    // The native controls would act on the same keys again.
    event.preventDefault();
  };

  return (
    <div className="video-player">
      <div ref={frame} className="video-player__frame" tabIndex={0} aria-label={t('play.playerLabel')} onKeyDown={onKeyDown}>
        <video
          ref={video}
          className="video-player__video"
          src={lesson.mediaId === null ? undefined : mediaContentUrl(lesson.mediaId)}
          controls
          playsInline
          preload="metadata"
          // The speed goes through the menu below, which knows the course's cap.
          controlsList="nodownload noplaybackrate"
          disablePictureInPicture
          onLoadedMetadata={(event) => {
            const el = event.currentTarget;
            const start = resumePosition(lesson.progress.position, Number.isFinite(el.duration) ? el.duration : (lesson.durationSeconds ?? 0));
            if (start > 0) el.currentTime = start;
          }}
          onPlay={() => {
            setNotice(undefined);
            // After another tab or device took over, playing here takes the lesson back.
            controls.start();
          }}
          // The stretch between the last `timeupdate` and the moment playing starts or stops is watched too.
          onPlaying={(event) => controls.playedTo(event.currentTarget.currentTime)}
          onPause={(event) => {
            controls.playedTo(event.currentTarget.currentTime);
            controls.stop();
          }}
          onEnded={(event) => {
            controls.playedTo(event.currentTarget.currentTime);
            controls.stop();
          }}
          onTimeUpdate={(event) => {
            const el = event.currentTarget;
            if (el.paused || el.seeking) return;
            controls.playedTo(el.currentTime);
            if (el.currentTime <= furthest.current + SKIP_TOLERANCE_SECONDS) furthest.current = Math.max(furthest.current, el.currentTime);
          }}
          onSeeking={(event) => {
            const el = event.currentTarget;
            controls.interrupt();
            if (el.currentTime > furthest.current + SKIP_TOLERANCE_SECONDS) {
              el.currentTime = furthest.current;
              setNotice('no-skip');
            }
          }}
          onSeeked={(event) => {
            const el = event.currentTarget;
            if (!el.paused) controls.playedTo(el.currentTime);
          }}
          onRateChange={(event) => {
            const el = event.currentTarget;
            // A rate set some other way (the browser's own menu, an extension) is held to the cap too.
            if (el.playbackRate > cap) el.playbackRate = cap;
            setRate(el.playbackRate);
          }}
        />
      </div>
      <div className="video-player__bar">
        <label className="video-player__rate">
          {t('play.speed')}
          <select value={String(rate)} onChange={(event) => changeRate(Number(event.target.value))}>
            {rates.map((option) => (
              <option key={option} value={String(option)}>
                {`${option}×`}
              </option>
            ))}
          </select>
        </label>
        <p className="video-player__help">{t('play.shortcuts')}</p>
      </div>
      {notice === 'no-skip' && (
        <p className="play-notice" role="status">
          {t('play.noSkip')}
        </p>
      )}
      {superseded && (
        <p className="play-notice play-notice--warning" role="alert">
          {t('play.superseded')}
        </p>
      )}
    </div>
  );
}
