import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { adminSession } from '../admin-session.js';
import type { ThroughputScenario } from '../scenario.js';

const MEBIBYTE = 1024 * 1024;
/** The first upload to the bench's fresh database: the demo catalogue, with its media, is not seeded there. */
const MEDIA_ID = 1;
const PATH = `/api/media/${MEDIA_ID}/content`;

/** A 60 s 720p H.264 MP4 of about 50 MB (7 Mbit/s), made by ffmpeg in a temporary folder. */
function makeVideo(folder: string): string {
  const file = path.join(folder, 'bench-video.mp4');
  const ffmpeg = spawnSync(
    'ffmpeg',
    ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30', '-t', '60', '-c:v', 'libx264', '-preset', 'ultrafast', '-b:v', '7M', '-movflags', '+faststart', file],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  if (ffmpeg.error !== undefined && 'code' in ffmpeg.error && ffmpeg.error.code === 'ENOENT') {
    throw new Error('bench: the media scenario needs ffmpeg to make its video (Debian: apt-get install ffmpeg); skip it with --only naming another scenario');
  }
  if (ffmpeg.error !== undefined || ffmpeg.status !== 0) throw new Error(`bench: ffmpeg could not make the video (${ffmpeg.error?.message ?? `exit ${ffmpeg.status}`})`);
  const { size } = fs.statSync(file);
  if (size < 45 * MEBIBYTE || size > 60 * MEBIBYTE) throw new Error(`bench: the video is ${size} bytes, not about 50 MB`);
  return file;
}

/**
 * Uploads the video through the real API as the administrator and answers the headers of a
 * player seeking into it: the session token and a 1 MiB range from the middle of the file.
 */
async function uploadedVideo(baseUrl: string): Promise<Record<string, string>> {
  const headers = await adminSession(baseUrl);
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-bench-video-'));
  try {
    const form = new FormData();
    form.append('file', await fs.openAsBlob(makeVideo(folder), { type: 'video/mp4' }), 'bench-video.mp4');
    const response = await fetch(`${baseUrl}/api/media`, { method: 'POST', headers, body: form });
    if (response.status !== 201) throw new Error(`bench: the upload answered ${response.status} ${await response.text()}`);
    const { id, size } = (await response.json()) as { id: number; size: number };
    if (id !== MEDIA_ID) throw new Error(`bench: the video was stored as media ${id}, not ${MEDIA_ID}`);
    const start = Math.floor(size / 2);
    return { ...headers, range: `bytes=${start}-${start + MEBIBYTE - 1}` };
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

export const mediaRange: ThroughputScenario = {
  kind: 'throughput',
  name: 'authenticated GET api/media/{id}/content, 1 MiB range of a 50 MB video',
  target: 0.8,
  subject: { server: 'servers/app-server.ts', path: PATH, prepare: uploadedVideo },
  reference: { server: 'servers/bare-media.ts', path: PATH },
  shareData: true,
  sameAnswer: true,
};
