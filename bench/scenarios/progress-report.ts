import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { adminSession } from '../admin-session.js';
import type { ThroughputScenario } from '../scenario.js';

// The first rows of the bench's fresh database (the demo catalogue is not seeded there).
const LESSON_ID = 1;
const PATH = `/api/site/lessons/${LESSON_ID}/progress`;
/** The demo's 8 s clip: a player reports what it played of it, and the server merges and stores it. */
const VIDEO = new URL('../../apps/server/src/db/seed/demo-media/safety-intro.mp4', import.meta.url);
const REPORT = JSON.stringify({ sessionId: 'bench-playback-0001', intervals: [[0, 4]], position: 4 });

async function send(baseUrl: string, headers: Record<string, string>, method: string, path: string, body: unknown): Promise<Response> {
  const response = await fetch(`${baseUrl}${path}`, { method, headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`bench: ${method} ${path} answered ${response.status} ${await response.text()}`);
  return response;
}

const idOf = async (response: Response): Promise<number> => ((await response.json()) as { id: number }).id;

/**
 * A published course with a free-preview video lesson (so the administrator may study it without
 * enrolling), made through the real API, and a playback of it already under way: its first
 * reports are sent, two seconds apart, so the interval the load repeats is covered and every
 * later report of both sides answers the same (nothing new accepted), while each still reads the
 * lesson, the playback and the progress, merges, and durably writes the progress and the playback.
 */
async function playback(baseUrl: string): Promise<Record<string, string>> {
  const headers = await adminSession(baseUrl);
  const form = new FormData();
  form.append('file', await fs.openAsBlob(VIDEO, { type: 'video/mp4' }), 'safety-intro.mp4');
  const upload = await fetch(`${baseUrl}/api/media`, { method: 'POST', headers, body: form });
  if (upload.status !== 201) throw new Error(`bench: the upload answered ${upload.status} ${await upload.text()}`);
  const mediaId = await idOf(upload);
  const courseId = await idOf(await send(baseUrl, headers, 'POST', '/api/courses', { title: '安全生产入门', status: 'published' }));
  const chapterId = await idOf(await send(baseUrl, headers, 'POST', '/api/chapters', { courseId, title: '第 1 章' }));
  const lessonId = await idOf(await send(baseUrl, headers, 'POST', '/api/lessons', { chapterId, title: '安全须知', type: 'video', mediaId, preview: true }));
  if (lessonId !== LESSON_ID) throw new Error(`bench: the lesson was stored as ${lessonId}, not ${LESSON_ID}`);
  const report = JSON.parse(REPORT) as unknown;
  await send(baseUrl, headers, 'POST', PATH, report);
  await sleep(2500);
  await send(baseUrl, headers, 'POST', PATH, report);
  return headers;
}

export const progressReport: ThroughputScenario = {
  kind: 'throughput',
  name: 'authenticated POST api/site/lessons/{id}/progress, a video report merged and durably stored',
  target: 0.6,
  subject: { server: 'servers/app-server.ts', path: PATH, method: 'POST', body: REPORT, prepare: playback },
  reference: { server: 'servers/bare-progress.ts', path: PATH, method: 'POST', body: REPORT },
  shareData: true,
  sameAnswer: true,
};
