import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { UnreadableWebm, WEBM_HEAD_BYTES, webmDuration } from './webm-duration.js';

// Made by ffmpeg (libvpx): a 3 s clip, and a 2 s one written as a live stream, which states no duration.
const clip = fs.readFileSync(new URL('./test-files/clip-3s.webm', import.meta.url));
const live = fs.readFileSync(new URL('./test-files/live-no-duration.webm', import.meta.url));

describe('webmDuration', () => {
  it('reads Duration × TimecodeScale from the Segment Info', () => {
    expect(webmDuration(clip, true)).toBeCloseTo(3, 2);
  });

  it('needs only the head of the file', () => {
    expect(clip.length).toBeGreaterThan(1000);
    expect(webmDuration(clip.subarray(0, 1000), false)).toBeCloseTo(3, 2);
    expect(WEBM_HEAD_BYTES).toBeGreaterThanOrEqual(256 * 1024);
  });

  it('answers null for a live recording, which states no duration', () => {
    expect(webmDuration(live, true)).toBeNull();
  });

  it('answers null when the head read ends before the Info, and refuses a whole file that ends there', () => {
    const cut = clip.subarray(0, 60);
    expect(webmDuration(cut, false)).toBeNull();
    expect(() => webmDuration(cut, true)).toThrow(UnreadableWebm);
  });

  it.each([
    ['the EBML header alone', clip.subarray(0, 0x24)],
    ['a PNG', fs.readFileSync(new URL('./test-files/picture.png', import.meta.url))],
    ['nothing', Buffer.alloc(0)],
    ['a header followed by zeros', Buffer.concat([clip.subarray(0, 0x24), Buffer.alloc(100)])],
  ])('refuses %s', (_name, bytes) => {
    expect(() => webmDuration(bytes, true)).toThrow(UnreadableWebm);
  });
});
