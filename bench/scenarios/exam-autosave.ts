import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AttemptStart } from '@cloud-classroom/shared/attempts';
import autocannon from 'autocannon';
import { cpuMsOf, median, startServer, stop, type Running } from '../bench-process.js';
import { answerFor, startLearnerAttempt } from '../learner-attempt.js';
import type { MeasuredScenario } from '../scenario.js';

// DESIGN §8: exam autosave, durable, ≥ 0.60 × the bare reference (servers/bare-autosave.ts: the
// same conditional update, one transaction and one fsync per save) on CPU time per request, in
// alternating rounds as the throughput scenarios; then the latency at a fixed arrival rate of half
// the reference's saturation rate, p99 ≤ 25 ms. Every save is a new revision (one more than any
// sent before, over the attempt's questions in turn), so every one is a real write on both sides,
// never the no-op an old revision is.

const P99_TARGET_MS = 25;
const CPU_TARGET = 0.6;

type Sample = { requestsPerSecond: number; cpuMsPerRequest: number | undefined; p99: number };

export const examAutosave: MeasuredScenario = {
  kind: 'measured',
  name: 'exam autosave: PUT api/site/attempts/{id}/answers/{questionId}, durable (group commit)',
  run: async ({ rounds, seconds, connections }) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-bench-autosave-'));
    let taken: { headers: Record<string, string>; attempt: AttemptStart } | undefined;
    const subject = await startServer(
      {
        server: 'servers/app-server.ts',
        path: '/',
        prepare: async (baseUrl) => {
          taken = await startLearnerAttempt(baseUrl, 'learner1');
          return taken.headers;
        },
      },
      { DATA_DIR: dataDir, BENCH_DEMO: '1' },
    );
    // Started once the attempt exists: it works on a copy of the database taken at its start.
    const reference = await startServer({ server: 'servers/bare-autosave.ts', path: '/' }, { DATA_DIR: dataDir });
    reference.headers = subject.headers;
    try {
      if (taken === undefined) throw new Error('bench: no attempt was started');
      const { attempt } = taken;
      let sent = 0;
      const nextSave = (): { path: string; body: string } => {
        sent += 1;
        const question = attempt.questions[sent % attempt.questions.length];
        if (question === undefined) throw new Error('bench: the attempt has no questions');
        return {
          path: `/api/site/attempts/${attempt.id}/answers/${question.id}`,
          body: JSON.stringify({ response: answerFor(question, sent), revision: sent, seconds: 3 }),
        };
      };

      // Both sides store the save and answer the revision sent.
      for (const server of [subject, reference]) {
        const save = nextSave();
        const answer = await fetch(`${server.baseUrl}${save.path}`, { method: 'PUT', headers: { ...server.headers, 'content-type': 'application/json' }, body: save.body });
        const body = (await answer.json()) as { revision?: number };
        if (answer.status !== 200 || body.revision !== sent) throw new Error(`bench: a save answered ${answer.status} ${JSON.stringify(body)}`);
      }

      const load = async (server: Running, durationSeconds: number, overallRate?: number): Promise<Sample> => {
        const cpuBefore = cpuMsOf(server.child.pid);
        const result = await autocannon({
          url: server.baseUrl,
          method: 'PUT',
          headers: { ...server.headers, 'content-type': 'application/json' },
          requests: [{ setupRequest: (request) => ({ ...request, ...nextSave() }) }],
          connections,
          duration: durationSeconds,
          ...(overallRate === undefined ? {} : { overallRate }),
        });
        const cpuAfter = cpuMsOf(server.child.pid);
        if (result.errors > 0 || result.non2xx > 0) throw new Error(`bench: autosave: ${result.errors} errors, ${result.non2xx} non-2xx answers`);
        const cpuMsPerRequest =
          cpuBefore === undefined || cpuAfter === undefined || result.requests.total === 0 ? undefined : (cpuAfter - cpuBefore) / result.requests.total;
        return { requestsPerSecond: result.requests.average, cpuMsPerRequest, p99: result.latency.p99 };
      };

      const sides = [
        { server: subject, samples: [] as Sample[], paced: [] as Sample[] },
        { server: reference, samples: [] as Sample[], paced: [] as Sample[] },
      ];
      for (const side of sides) await load(side.server, 2); // warm-up: JIT, caches, the WAL file
      for (let round = 0; round < rounds; round += 1) {
        const order = round % 2 === 0 ? sides : [...sides].reverse();
        for (const side of order) side.samples.push(await load(side.server, seconds));
        process.stdout.write('.');
      }
      const [subjectSide, referenceSide] = sides as [(typeof sides)[0], (typeof sides)[0]];
      const rate = (samples: Sample[]): number => median(samples.map((sample) => sample.requestsPerSecond));
      const cpu = (samples: Sample[]): number | undefined =>
        samples.every((sample) => sample.cpuMsPerRequest !== undefined) ? median(samples.map((sample) => sample.cpuMsPerRequest as number)) : undefined;

      // Latency at half the reference's saturation rate: a few alternating rounds of a few seconds.
      const halfRate = Math.max(1, Math.round(rate(referenceSide.samples) / 2));
      for (let round = 0; round < 3; round += 1) {
        const order = round % 2 === 0 ? sides : [...sides].reverse();
        for (const side of order) side.paced.push(await load(side.server, Math.max(3, seconds * 3), halfRate));
        process.stdout.write('.');
      }
      const p99 = (samples: Sample[]): number => median(samples.map((sample) => sample.p99));

      const [subjectCpu, referenceCpu] = [cpu(subjectSide.samples), cpu(referenceSide.samples)];
      const rateRatio = rate(subjectSide.samples) / rate(referenceSide.samples);
      const ratio = subjectCpu === undefined || referenceCpu === undefined ? rateRatio : referenceCpu / subjectCpu;
      const describe = (side: (typeof sides)[0], cpuMs: number | undefined): string =>
        `${Math.round(rate(side.samples)).toLocaleString('en-US')} req/s` +
        (cpuMs === undefined ? '' : `, ${Math.round(cpuMs * 1000)} µs CPU/req`) +
        `; p99 ${p99(side.paced)} ms at ${halfRate} req/s`;
      return {
        subject: describe(subjectSide, subjectCpu),
        reference: describe(referenceSide, referenceCpu),
        detail: `${rateRatio.toFixed(2)}; p99 ${p99(subjectSide.paced)} ms`,
        ratio: `${ratio.toFixed(2)} ${subjectCpu === undefined || referenceCpu === undefined ? '(req/s)' : '(CPU/req)'}`,
        target: `≥ ${CPU_TARGET.toFixed(2)}; p99 ≤ ${P99_TARGET_MS} ms at half load`,
        met: ratio >= CPU_TARGET && p99(subjectSide.paced) <= P99_TARGET_MS,
      };
    } finally {
      await Promise.all([stop(subject.child), stop(reference.child)]);
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  },
};
