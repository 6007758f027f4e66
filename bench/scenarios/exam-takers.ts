import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { AttemptQuestion, AttemptStart } from '@cloud-classroom/shared/attempts';
import Database from 'better-sqlite3';
import { cpuMsOf, startServer, stop } from '../bench-process.js';
import { answerFor, DEMO_EXAM_TITLE } from '../learner-attempt.js';
import type { MeasuredScenario } from '../scenario.js';

// DESIGN §8: a synchronised exam start, then every taker autosaving every 10 s: the most takers
// one server process on one core holds with no error and p99 ≤ 200 ms (target ≥ 10,000; Moodle
// 4.5 needs 16 vCPU for 2,000). Steps of a growing number of takers, each step new people: their
// starts spread evenly over the spike, then each saves an answer (a new revision of the next
// question of their paper) 10 s after their start and every 10 s after that, until the step ends.
// The first failing step ends the ramp.
//
// Not measured: logins (argon2 costs by design, and people sign in before the exam, not in its
// first second): the takers' accounts, their assignment to the demo exam and their sessions are
// written to the database in the set-up, the sessions last seen up to a minute ago, so the
// product's once-a-minute session touch runs at the rate a long exam sees. The load comes through
// a pool of keep-alive connections, as from a reverse proxy, not one connection per taker.
// Latency counts from the moment a request was due, so a load generator falling behind (or a
// server making the pool queue) shows in it rather than hiding.

const SAVE_EVERY_MS = 10_000;
export const P99_TARGET_MS = 200;
const TARGET_TAKERS = 10_000;
/** The starts of a step spread over this long: the "everyone clicks Start at nine" spike. */
export const SPIKE_MS = 20_000;
/** After the last start, the step goes on this long: two more saves from every taker. */
export const STEADY_MS = 20_000;
const SOCKETS = 256;
const REQUEST_TIMEOUT_MS = 10_000;
const BUCKET_MS = 2;

export type Taker = { userId: number; token: string };
export type StepResult = {
  takers: number;
  requests: number;
  errors: number;
  firstError: string | undefined;
  p99Start: number;
  p99Save: number;
  p99: number;
  cpuMsPerSecond: number | undefined;
  /** The server's CPU per save (from the steady part, saves only) and per start (the spike's CPU less its saves'). */
  cpuMsPerSave: number | undefined;
  cpuMsPerStart: number | undefined;
};

/** HS256, as the product signs its session tokens, with the secret the product keeps in its database. */
export function tokenOf(secret: string, sessionId: string, now: number): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${part({ alg: 'HS256' })}.${part({ sid: sessionId, iat: Math.floor(now / 1000), exp: Math.floor(now / 1000) + 86_400 })}`;
  return `Bearer ${unsigned}.${crypto.createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}

/** Learners assigned the demo exam, each with a live session: written straight to the product's database. */
function makeTakers(dataDir: string, count: number, offset: number): Taker[] {
  const db = new Database(path.join(dataDir, 'cloud-classroom.sqlite'));
  db.pragma('busy_timeout = 10000');
  try {
    const { value: secret } = db.prepare("select value from app_setting where key = 'jwt_secret'").get() as { value: string };
    const { id: examId } = db.prepare('select id from edu_exam where title = ?').get(DEMO_EXAM_TITLE) as { id: number };
    const { id: roleId } = db.prepare("select id from sys_role where name = 'learner'").get() as { id: number };
    const { id: deptId } = db.prepare('select id from sys_dept order by id limit 1').get() as { id: number };
    const insertUser = db.prepare(
      `insert into sys_user (dept_id, username, nick_name, gender, phone, email, avatar_name, password_hash, is_admin, enabled, pwd_reset_time, create_by, update_by, create_time, update_time)
       values (?, ?, ?, null, null, null, null, 'no-login', 0, 1, null, 'bench', 'bench', ?, ?)`,
    );
    const insertRole = db.prepare('insert into sys_users_roles (user_id, role_id) values (?, ?)');
    const assign = db.prepare(
      `insert into edu_exam_assignee (exam_id, user_id, source, rule_id, due_at, extra_minutes, extra_attempts, open_at, close_at, create_by, create_time, update_time)
       values (?, ?, 'staff', null, null, 0, 0, null, null, 'bench', ?, ?)`,
    );
    const insertSession = db.prepare('insert into sys_session (id, user_id, ip, browser, created_at, last_seen_at, expires_at) values (?, ?, ?, ?, ?, ?, ?)');
    const now = Date.now();
    return db.transaction(() =>
      Array.from({ length: count }, (_, index) => {
        const number = offset + index + 1;
        const userId = Number(insertUser.run(deptId, `taker${number}`, `考生 ${number}`, now, now).lastInsertRowid);
        insertRole.run(userId, roleId);
        assign.run(examId, userId, now, now);
        const sessionId = crypto.randomBytes(24).toString('base64url');
        const lastSeen = now - Math.floor(Math.random() * 60_000);
        insertSession.run(sessionId, userId, '127.0.0.1', 'bench', lastSeen, lastSeen, now + 4 * 3_600_000);
        return { userId, token: tokenOf(secret, sessionId, now) };
      }),
    )();
  } finally {
    db.close();
  }
}

const percentile = (values: number[], share: number): number => {
  if (values.length === 0) return 0;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] as number;
};

/** Where a step sends its load: http straight to a server, or https through a proxy whose certificate is `ca`. */
export type StepTarget = {
  baseUrl: string;
  /** The certificate to trust, for an https baseUrl. */
  ca?: Buffer;
  /** The CPU the server side has used so far, in ms (one process's, or the sum of several); undefined without /proc. */
  cpuMs: () => number | undefined;
  /**
   * Starts at moments drawn at random over the spike (from this seed, so a step of the same size
   * gets the same moments), rather than evenly spaced. For a load balancer that alternates requests:
   * evenly spaced starts, each taker's saves 10 s after its start, send starts and saves in strict
   * alternation, and a round robin would give one node every start.
   */
  randomStarts?: { seed: number };
};

/** mulberry32: a small seeded generator of numbers in [0, 1). */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** One step: the takers' starts over the spike, then their saves every 10 s until the step ends. */
export async function runStep(target: StepTarget, examId: number, takers: Taker[]): Promise<StepResult> {
  const url = new URL(target.baseUrl);
  const secure = url.protocol === 'https:';
  const agent = secure ? new https.Agent({ keepAlive: true, maxSockets: SOCKETS, ...(target.ca === undefined ? {} : { ca: target.ca }) }) : new http.Agent({ keepAlive: true, maxSockets: SOCKETS });
  const sendRequest = secure ? https.request : http.request;
  const startLatencies: number[] = [];
  const saveLatencies: number[] = [];
  // Requests answered so far, for the CPU per request of each part of the step.
  let startsAnswered = 0;
  let savesAnswered = 0;
  let errors = 0;
  let firstError: string | undefined;
  const fail = (what: string) => {
    errors += 1;
    firstError ??= what;
  };

  const send = (method: string, requestPath: string, token: string, body: string | undefined): Promise<{ status: number; text: string }> =>
    new Promise((resolve, reject) => {
      const request = sendRequest(
        {
          host: url.hostname,
          port: url.port,
          method,
          path: requestPath,
          agent,
          timeout: REQUEST_TIMEOUT_MS,
          headers: { authorization: token, 'user-agent': 'bench-taker', ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }) },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
          response.on('error', reject);
        },
      );
      request.on('timeout', () => request.destroy(new Error('timed out')));
      request.on('error', reject);
      request.end(body);
    });

  const began = performance.now();
  const stepEnds = SPIKE_MS + STEADY_MS;
  // Due times in ms since the step began, in buckets of a few ms; a timer sends what is due.
  const buckets = new Map<number, (() => void)[]>();
  let nextBucket = 0;
  const schedule = (at: number, run: () => void) => {
    const bucket = Math.max(nextBucket, Math.floor(at / BUCKET_MS));
    const items = buckets.get(bucket);
    if (items === undefined) buckets.set(bucket, [run]);
    else items.push(run);
  };
  const pending = new Set<Promise<void>>();
  const track = (work: Promise<void>) => {
    pending.add(work);
    void work.finally(() => pending.delete(work));
  };

  const saveLoop = (taker: Taker, attempt: { id: number; questions: AttemptQuestion[] }, startAt: number, count: number) => {
    const at = startAt + count * SAVE_EVERY_MS;
    if (at > stepEnds) return;
    schedule(at, () => {
      const question = attempt.questions[(count - 1) % attempt.questions.length] as AttemptQuestion;
      const body = JSON.stringify({ response: answerFor(question, count), revision: count, seconds: 10 });
      track(
        send('PUT', `/api/site/attempts/${attempt.id}/answers/${question.id}`, taker.token, body).then(
          ({ status, text }) => {
            savesAnswered += 1;
            saveLatencies.push(performance.now() - began - at);
            if (status !== 200) fail(`save: ${status} ${text.slice(0, 200)}`);
          },
          (error: Error) => fail(`save: ${error.message}`),
        ),
      );
      saveLoop(taker, attempt, startAt, count + 1);
    });
  };

  const random = target.randomStarts === undefined ? undefined : seededRandom(target.randomStarts.seed);
  takers.forEach((taker, index) => {
    const at = random === undefined ? (SPIKE_MS * index) / takers.length : random() * SPIKE_MS;
    schedule(at, () =>
      track(
        send('POST', `/api/site/exams/${examId}/attempts`, taker.token, undefined).then(
          ({ status, text }) => {
            startsAnswered += 1;
            startLatencies.push(performance.now() - began - at);
            if (status !== 201 && status !== 200) {
              fail(`start: ${status} ${text.slice(0, 200)}`);
              return;
            }
            const attempt = JSON.parse(text) as AttemptStart;
            saveLoop(taker, attempt, at, 1);
          },
          (error: Error) => fail(`start: ${error.message}`),
        ),
      ),
    );
  });

  const cpuBefore = target.cpuMs();
  // Once every start is answered, the CPU and the count of saves so far: what follows is saves only.
  let spikeEnd: { cpu: number | undefined; saves: number } | undefined;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now() - began;
      if (spikeEnd === undefined && startsAnswered === takers.length) spikeEnd = { cpu: target.cpuMs(), saves: savesAnswered };
      for (; nextBucket <= Math.floor(now / BUCKET_MS); nextBucket += 1) {
        for (const run of buckets.get(nextBucket) ?? []) run();
        buckets.delete(nextBucket);
      }
      if (now < stepEnds || buckets.size > 0) setTimeout(tick, BUCKET_MS);
      else resolve();
    };
    tick();
  });
  while (pending.size > 0) await Promise.allSettled([...pending]);
  const cpuAfter = target.cpuMs();
  agent.destroy();
  const elapsed = performance.now() - began;
  const steadySaves = savesAnswered - (spikeEnd?.saves ?? savesAnswered);
  const cpuMsPerSave =
    cpuAfter === undefined || spikeEnd?.cpu === undefined || steadySaves === 0 ? undefined : (cpuAfter - spikeEnd.cpu) / steadySaves;
  const cpuMsPerStart =
    cpuMsPerSave === undefined || cpuBefore === undefined || spikeEnd?.cpu === undefined
      ? undefined
      : (spikeEnd.cpu - cpuBefore - cpuMsPerSave * spikeEnd.saves) / takers.length;
  return {
    cpuMsPerSave,
    cpuMsPerStart,
    takers: takers.length,
    requests: startLatencies.length + saveLatencies.length,
    errors,
    firstError,
    p99Start: percentile(startLatencies, 0.99),
    p99Save: percentile(saveLatencies, 0.99),
    p99: percentile([...startLatencies, ...saveLatencies], 0.99),
    cpuMsPerSecond: cpuBefore === undefined || cpuAfter === undefined ? undefined : ((cpuAfter - cpuBefore) * 1000) / elapsed,
  };
}

/** A step's line: its requests, errors, p99s, the server's CPU (100 % a core) and its cost per start and per save. */
export function describeStep(result: StepResult): string {
  return (
    `${result.takers.toLocaleString('en-US')} takers: ${result.requests.toLocaleString('en-US')} requests, ${result.errors} errors, ` +
    `p99 ${Math.round(result.p99)} ms (start ${Math.round(result.p99Start)} ms, save ${Math.round(result.p99Save)} ms)` +
    (result.cpuMsPerSecond === undefined ? '' : `, server CPU ${Math.round(result.cpuMsPerSecond / 10)} %`) +
    (result.cpuMsPerStart === undefined || result.cpuMsPerSave === undefined
      ? ''
      : ` (${result.cpuMsPerStart.toFixed(2)} ms a start, ${result.cpuMsPerSave.toFixed(2)} ms a save)`) +
    (result.firstError === undefined ? '' : `; first error: ${result.firstError}`)
  );
}

/** Held: no error and a p99 within the target. */
export const stepHeld = (result: StepResult): boolean => result.errors === 0 && result.p99 <= P99_TARGET_MS;

/** The steps: the counts given (`--takers 2500,5000,…`), else these. */
export const DEFAULT_TAKER_STEPS = [500, 1_000, 2_000, 5_000, 10_000, 15_000, 20_000];

export function examTakers(steps: number[] = DEFAULT_TAKER_STEPS): MeasuredScenario {
  return {
    kind: 'measured',
    name: 'exam takers: a start spike, then a save every 10 s per taker, on one core',
    run: async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-bench-takers-'));
      const server = await startServer({ server: 'servers/app-server.ts', path: '/' }, { DATA_DIR: dataDir, BENCH_DEMO: '1' });
      try {
        const db = new Database(path.join(dataDir, 'cloud-classroom.sqlite'), { readonly: true });
        const { id: examId } = db.prepare('select id from edu_exam where title = ?').get(DEMO_EXAM_TITLE) as { id: number };
        db.close();
        const results: StepResult[] = [];
        let made = 0;
        for (const count of steps) {
          const takers = makeTakers(dataDir, count, made);
          made += count;
          const result = await runStep({ baseUrl: server.baseUrl, cpuMs: () => cpuMsOf(server.child.pid) }, examId, takers);
          results.push(result);
          process.stdout.write(`\n  ${describeStep(result)}`);
          if (!stepHeld(result)) break;
        }
        const held = results.filter(stepHeld).at(-1);
        const failed = results.find((result) => !stepHeld(result));
        // What the CPU alone would allow, by the last step's CPU share (linear, starts included as in
        // that step): where the latency, not the CPU, is the limit (a disk slow to sync), it says how far.
        const last = results.at(-1);
        const cpuBound =
          last?.cpuMsPerSecond === undefined || last.cpuMsPerSecond === 0 ? undefined : Math.round((last.takers * 1000) / last.cpuMsPerSecond);
        const describe = (result: StepResult | undefined) =>
          result === undefined ? 'none' : `${result.takers.toLocaleString('en-US')} takers, p99 ${Math.round(result.p99)} ms, ${result.errors} errors`;
        return {
          subject: `held ${describe(held)}`,
          reference: failed === undefined ? `every step held (up to ${steps.at(-1)?.toLocaleString('en-US')})` : `not held: ${describe(failed)}`,
          detail: `spike ${SPIKE_MS / 1000} s, then ${STEADY_MS / 1000} s` + (cpuBound === undefined ? '' : `; CPU alone: ~${cpuBound.toLocaleString('en-US')} takers`),
          ratio: `${((held?.takers ?? 0) / TARGET_TAKERS).toFixed(2)} (takers ÷ ${TARGET_TAKERS.toLocaleString('en-US')})`,
          target: `≥ ${TARGET_TAKERS.toLocaleString('en-US')} takers, 0 errors, p99 ≤ ${P99_TARGET_MS} ms`,
          met: (held?.takers ?? 0) >= TARGET_TAKERS,
        };
      } finally {
        await stop(server.child);
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}
