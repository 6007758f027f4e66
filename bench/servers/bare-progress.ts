// The reference for POST api/site/lessons/{id}/progress with a video report: bare node:http doing
// the same essential work as the product — check the token and the session, read the JSON body,
// and in one transaction read the lesson with its course, media and whether the caller is enrolled,
// the playback and the progress (making them on a first report), merge the claimed intervals with
// the same shared rules, write the progress and the playback (and the day's study time when there
// is any), all with prepared statements on the same SQLite database, durably (WAL, synchronous
// FULL, as the product; see below for why in a copy of it) — with no framework, no query builder, no schemas, no hooks. Video reports
// only, and the body is trusted to be one.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { formatDateTime } from '@cloud-classroom/shared/display';
import {
  acceptCoverage,
  allowedSeconds,
  coveredSeconds,
  furthestFromStart,
  MAX_STUDY_SECONDS_PER_REPORT,
  percentOf,
  startingTolerance,
  type Interval,
} from '@cloud-classroom/shared/progress-rules';
import Database from 'better-sqlite3';
import { announceReady } from './announce-ready.js';
import { bareSessionCheck } from './bare-session.js';

const dataDir = process.env.DATA_DIR;
if (dataDir === undefined) throw new Error('DATA_DIR is not set');
// Its own copy of the product's database (taken once the product has made the lesson and the
// session): both sides write, and a write of one side's last requests of a round, still running
// when the other side's round begins, would otherwise make the other's transaction fail as busy.
const copy = path.join(dataDir, 'bare-progress.sqlite');
fs.rmSync(copy, { force: true });
const source = new Database(path.join(dataDir, 'cloud-classroom.sqlite'));
source.prepare('vacuum into ?').run(copy);
source.close();
const db = new Database(copy);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.pragma('busy_timeout = 5000');
const sessionOf = bareSessionCheck(db);

type Lesson = {
  id: number;
  course_id: number;
  type: string;
  completion_percent: number;
  preview: number;
  required: number;
  course_status: string;
  max_playback_rate: number;
  allow_skip: number;
  duration_seconds: number | null;
  enrolled: number;
};
type Playback = { id: number; lesson_id: number; started_at: number; last_report_at: number; superseded: number; credited_seconds: number; tolerance_seconds: number };
type Progress = { id: number; intervals: string; covered_seconds: number; pages_read: string; percent: number; position: number; completed_at: number | null };
type Report = { sessionId: string; intervals: Interval[]; position: number };

const findLesson = db.prepare(
  `select l.id, l.course_id, l.type, l.completion_percent, l.preview, l.required, c.status as course_status, c.max_playback_rate, c.allow_skip,
     m.duration_seconds,
     exists(select 1 from edu_applicant a join edu_term t on t.id = a.term_id
            where t.course_id = l.course_id and a.user_id = ? and a.status in ('approved', 'in_progress', 'completed')) as enrolled
   from edu_lesson l join edu_course c on c.id = l.course_id join edu_chapter ch on ch.id = l.chapter_id left join edu_media m on m.id = l.media_id
   where l.id = ?`,
);
const findPlayback = db.prepare('select * from edu_playback where user_id = ? and session_key = ?');
const insertPlayback = db.prepare(
  'insert into edu_playback (session_key, user_id, lesson_id, started_at, last_report_at, page, page_since, superseded, tolerance_seconds) values (?, ?, ?, ?, ?, null, null, 0, ?) on conflict do nothing',
);
const lastReportAt = db.prepare('select max(last_report_at) as last from edu_playback where user_id = ?');
const supersede = db.prepare('update edu_playback set superseded = 1 where user_id = ? and session_key <> ? and superseded = 0');
const findProgress = db.prepare('select * from edu_lesson_progress where user_id = ? and lesson_id = ?');
const insertProgress = db.prepare(
  `insert into edu_lesson_progress (user_id, lesson_id, course_id, intervals, covered_seconds, pages_read, percent, position, completed_at, updated_at)
   values (?, ?, ?, '[]', 0, '[]', 0, 0, null, ?) on conflict do nothing`,
);
const updateProgress = db.prepare(
  'update edu_lesson_progress set intervals = ?, covered_seconds = ?, pages_read = ?, percent = ?, position = ?, completed_at = ?, updated_at = ? where id = ?',
);
const updatePlayback = db.prepare('update edu_playback set lesson_id = ?, last_report_at = ?, page = null, page_since = null, credited_seconds = credited_seconds + ? where id = ?');
const addStudy = db.prepare(
  'insert into edu_study_day (user_id, day, seconds) values (?, ?, ?) on conflict (user_id, day) do update set seconds = edu_study_day.seconds + excluded.seconds',
);
const courseCompletion = db.prepare(
  `select count(*) as required, count(p.id) as completed from edu_lesson l
   left join edu_lesson_progress p on p.lesson_id = l.id and p.user_id = ? and p.completed_at is not null
   where l.course_id = ? and l.required = 1`,
);

const progressOf = (row: Progress) => ({
  coveredSeconds: row.covered_seconds,
  percent: row.percent,
  completed: row.completed_at !== null,
  position: row.position,
  pagesRead: JSON.parse(row.pages_read) as number[],
});

const reportVideo = db.transaction((userId: number, lessonId: number, report: Report) => {
  const lesson = findLesson.get(userId, lessonId) as Lesson | undefined;
  if (lesson === undefined || lesson.course_status !== 'published') return { status: 404 };
  if (lesson.preview !== 1 && lesson.enrolled !== 1) return { status: 403 };
  if (lesson.type !== 'video') return { status: 400 };
  const now = Date.now();
  let playback = findPlayback.get(userId, report.sessionId) as Playback | undefined;
  const first = playback === undefined;
  if (playback === undefined) {
    const { last } = lastReportAt.get(userId) as { last: number | null };
    insertPlayback.run(report.sessionId, userId, lessonId, now, now, startingTolerance(last === null ? null : (now - last) / 1000, lesson.max_playback_rate));
    supersede.run(userId, report.sessionId);
    playback = findPlayback.get(userId, report.sessionId) as Playback;
  }
  if (playback.superseded === 1) {
    const row = findProgress.get(userId, lessonId) as Progress | undefined;
    return { status: 200, body: { ...(row === undefined ? { coveredSeconds: 0, percent: 0, completed: false, position: 0, pagesRead: [] } : progressOf(row)), acceptedSeconds: 0, superseded: true } };
  }
  let current = findProgress.get(userId, lessonId) as Progress | undefined;
  if (current === undefined) {
    insertProgress.run(userId, lessonId, lesson.course_id, now);
    current = findProgress.get(userId, lessonId) as Progress;
  }
  const elapsed = first ? 0 : Math.max(0, now - playback.last_report_at) / 1000;
  const duration = lesson.duration_seconds ?? 0;
  const covered = JSON.parse(current.intervals) as Interval[];
  const accepted = acceptCoverage({
    covered,
    claimed: report.intervals,
    durationSeconds: duration,
    allowance: allowedSeconds({
      elapsedSeconds: (now - playback.started_at) / 1000,
      maxPlaybackRate: lesson.max_playback_rate,
      tolerance: playback.tolerance_seconds,
      credited: playback.credited_seconds,
    }),
    allowSkip: lesson.allow_skip === 1,
    furthest: furthestFromStart(covered),
  });
  const seconds = Math.min(coveredSeconds(accepted.covered), duration);
  const percent = percentOf(seconds, duration);
  const position = Math.min(Math.max(0, report.position), duration);
  const completedAt = current.completed_at ?? (percent >= lesson.completion_percent ? now : null);
  updateProgress.run(JSON.stringify(accepted.covered), seconds, current.pages_read, percent, position, completedAt, now, current.id);
  updatePlayback.run(lessonId, now, accepted.accepted, playback.id);
  if (report.intervals.length > 0) {
    const studied = Math.round(Math.min(elapsed, MAX_STUDY_SECONDS_PER_REPORT));
    if (studied > 0) addStudy.run(userId, formatDateTime(now, '{y}-{m}-{d}'), studied);
    if (lesson.enrolled === 1 && !(lesson.required === 1 && completedAt === null)) courseCompletion.get(userId, lesson.course_id);
  }
  return {
    status: 200,
    body: { coveredSeconds: seconds, percent, completed: completedAt !== null, position, pagesRead: JSON.parse(current.pages_read) as number[], acceptedSeconds: accepted.accepted, superseded: false },
  };
});

const server = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const session = sessionOf(request.headers.authorization);
    if (session === undefined) {
      response.writeHead(401).end();
      return;
    }
    const lessonId = Number(request.url?.split('/')[4]);
    const outcome = reportVideo(session.user_id, lessonId, JSON.parse(Buffer.concat(chunks).toString()) as Report);
    if (outcome.body === undefined) {
      response.writeHead(outcome.status).end();
      return;
    }
    const body = JSON.stringify(outcome.body);
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    response.end(body);
  });
});
server.listen(0, '127.0.0.1', () => announceReady(server));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
