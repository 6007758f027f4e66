// The reference for PUT api/site/attempts/{id}/answers/{questionId}: bare node:http doing the same
// durable write as the product, one request at a time — check the token and the session, read the
// JSON body, check the question is on the caller's attempt and the response has its shape (from
// the attempt's frozen paper, read once per attempt and kept, as the product keeps it), then in a
// transaction of its own the same conditional update of the one edu_attempt_answer row (a newer
// revision only, the attempt still open) and, when it changed nothing, the read of what is
// stored; answered after the commit. WAL with synchronous FULL, as the product: every answer is
// on disk before it is acknowledged. What it does not do is the product's group commit (saves
// arriving together share one transaction and one fsync): that is the product's advantage to
// show, not the reference's. Prepared statements on a copy of the product's database (see
// bare-progress.ts for why a copy); no framework, no query builder, no schemas, no hooks.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { formatDateTime } from '@cloud-classroom/shared/display';
import Database from 'better-sqlite3';
import { announceReady } from './announce-ready.js';
import { bareSessionCheck } from './bare-session.js';

const dataDir = process.env.DATA_DIR;
if (dataDir === undefined) throw new Error('DATA_DIR is not set');
const copy = path.join(dataDir, 'bare-autosave.sqlite');
fs.rmSync(copy, { force: true });
const source = new Database(path.join(dataDir, 'cloud-classroom.sqlite'));
source.prepare('vacuum into ?').run(copy);
source.close();
const db = new Database(copy);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.pragma('busy_timeout = 5000');
const sessionOf = bareSessionCheck(db);

type Question = { id: number; type: string; options: string[]; blanks: number };
type Attempt = { userId: number; questions: Map<number, Question> };
type Save = { response: unknown; revision: number; seconds?: number };

const findAttempt = db.prepare('select user_id, paper from edu_attempt where id = ?');
const writeAnswer = db.prepare(
  `update edu_attempt_answer set response = ?, revision = ?, saved_at = ?, seconds = seconds + ?
   where attempt_id = ? and question_id = ? and revision < ?
     and exists (select a.id from edu_attempt a where a.id = ? and a.state = 'in_progress' and a.submitted_at is null and (a.deadline is null or a.deadline > ?))`,
);
const storedAnswer = db.prepare(
  `select aa.revision, aa.saved_at, a.state, a.submitted_at, a.deadline from edu_attempt_answer aa join edu_attempt a on a.id = aa.attempt_id
   where aa.attempt_id = ? and aa.question_id = ?`,
);

const attempts = new Map<number, Attempt>();
function attemptOf(attemptId: number): Attempt | undefined {
  let attempt = attempts.get(attemptId);
  if (attempt === undefined) {
    const row = findAttempt.get(attemptId) as { user_id: number; paper: string } | undefined;
    if (row === undefined) return undefined;
    const paper = JSON.parse(row.paper) as { questions: Question[] };
    attempt = { userId: row.user_id, questions: new Map(paper.questions.map((question) => [question.id, question])) };
    attempts.set(attemptId, attempt);
  }
  return attempt;
}

/** The shape the question's type takes; the choices among its keys. */
function fits(question: Question, response: unknown): boolean {
  if (response === null) return true;
  switch (question.type) {
    case 'single':
      return typeof response === 'string' && question.options.includes(response);
    case 'judge':
      return response === 'T' || response === 'F';
    case 'multiple':
      return Array.isArray(response) && response.every((key) => question.options.includes(key as string)) && new Set(response).size === response.length;
    case 'blank':
      return Array.isArray(response) && response.length === question.blanks;
    default:
      return typeof response === 'string';
  }
}

type Outcome = { revision: number; savedAt: number } | undefined;

const save = db.transaction((attemptId: number, questionId: number, body: Save, now: number): Outcome => {
  const response = body.response === null ? null : JSON.stringify(body.response);
  const written = writeAnswer.run(response, body.revision, now, body.seconds ?? 0, attemptId, questionId, body.revision, attemptId, now);
  if (written.changes > 0) return { revision: body.revision, savedAt: now };
  const stored = storedAnswer.get(attemptId, questionId) as { revision: number; saved_at: number | null; state: string; submitted_at: number | null; deadline: number | null };
  const open = stored.state === 'in_progress' && stored.submitted_at === null && (stored.deadline === null || stored.deadline > now);
  return open ? { revision: stored.revision, savedAt: stored.saved_at ?? now } : undefined;
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
    // /api/site/attempts/{id}/answers/{questionId}
    const parts = request.url?.split('/') ?? [];
    const attemptId = Number(parts[4]);
    const questionId = Number(parts[6]);
    const attempt = attemptOf(attemptId);
    const question = attempt?.userId === session.user_id ? attempt.questions.get(questionId) : undefined;
    if (question === undefined) {
      response.writeHead(404).end();
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString()) as Save;
    if (!Number.isInteger(body.revision) || body.revision < 1 || !fits(question, body.response)) {
      response.writeHead(400).end();
      return;
    }
    const outcome = save(attemptId, questionId, body, Date.now());
    if (outcome === undefined) {
      response.writeHead(409).end();
      return;
    }
    const answer = JSON.stringify({ revision: outcome.revision, savedAt: formatDateTime(outcome.savedAt) });
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(answer) });
    response.end(answer);
  });
});
server.listen(0, '127.0.0.1', () => announceReady(server));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
