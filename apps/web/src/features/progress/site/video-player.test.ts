import { describe, expect, it } from 'vitest';
import { playbackRates, resumePosition } from './video-player';

describe('the video player rules', () => {
  it.each([
    { cap: 1, rates: [0.75, 1] },
    { cap: 1.5, rates: [0.75, 1, 1.25, 1.5] },
    { cap: 1.6, rates: [0.75, 1, 1.25, 1.5, 1.6] },
    { cap: 2, rates: [0.75, 1, 1.25, 1.5, 1.75, 2] },
    { cap: 0, rates: [0.75, 1] },
  ])('offers the speeds up to a cap of $cap', ({ cap, rates }) => {
    expect(playbackRates(cap)).toEqual(rates);
  });

  it.each([
    { saved: 42, duration: 120, start: 42 },
    { saved: 0, duration: 120, start: 0 },
    { saved: 114.9, duration: 120, start: 114.9 },
    { saved: 115, duration: 120, start: 0 },
    { saved: 130, duration: 120, start: 0 },
    { saved: 3, duration: 8, start: 0 },
    { saved: 12, duration: Number.NaN, start: 12 },
  ])('resumes a video saved at $saved s of $duration s at $start s', ({ saved, duration, start }) => {
    expect(resumePosition(saved, duration)).toBe(start);
  });
});
