// `npm run bench`: each scenario's subject against its reference, measured in the same run.
// Throughput: servers run on core 0 and the load generator on core 1 (where taskset exists);
// many short rounds alternate between the two sides, so both see the same moments of a busy
// machine; the verdict is on the server's CPU time per request (utime + stime from
// /proc/<pid>/stat), which other processes disturb far less than requests per second.
// Cold start: the product and a bare node:http process are started in alternation, many times.
// Medians are compared throughout.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { canPin, cpuMsOf, median, readyLine, startServer, stop, type Running } from './bench-process.js';
import type { ColdStartScenario, Endpoint, Launch, MeasuredScenario, Scenario, ThroughputScenario } from './scenario.js';
import { censusList } from './scenarios/census.js';
import { certificatePdfs, certificateZip } from './scenarios/certificates.js';
import { clusterTakers } from './scenarios/cluster.js';
import { coldStart } from './scenarios/cold-start.js';
import { coursesPage } from './scenarios/courses-page.js';
import { examAutosave } from './scenarios/exam-autosave.js';
import { examTakers } from './scenarios/exam-takers.js';
import { health } from './scenarios/health.js';
import { mediaRange } from './scenarios/media-range.js';
import { menusBuild } from './scenarios/menus-build.js';
import { progressReport } from './scenarios/progress-report.js';
import { regrade } from './scenarios/regrade.js';

const { values: options } = parseArgs({
  options: {
    rounds: { type: 'string', default: '15' },
    seconds: { type: 'string', default: '1' },
    connections: { type: 'string', default: '10' },
    starts: { type: 'string', default: '15' },
    only: { type: 'string' },
    /** The exam-takers scenario's steps, comma-separated (500,1000,2000,5000,10000,15000,20000 by default). */
    takers: { type: 'string' },
    /** The cluster scenario's steps, the same for one node and for two (its DEFAULT_CLUSTER_STEPS by default). */
    'cluster-takers': { type: 'string' },
  },
});
const rounds = Number(options.rounds);
const seconds = Number(options.seconds);
const connections = Number(options.connections);
const starts = Number(options.starts);

function stepsOption(name: 'takers' | 'cluster-takers'): number[] | undefined {
  const steps = options[name]?.split(',').map(Number);
  if (steps?.some((count) => !Number.isInteger(count) || count < 1)) throw new Error(`--${name}: a list of whole numbers, not ${options[name]}`);
  return steps;
}
const takerSteps = stepsOption('takers');
const clusterSteps = stepsOption('cluster-takers');

const scenarios: Scenario[] = [
  health,
  menusBuild,
  coursesPage,
  mediaRange,
  progressReport,
  examAutosave,
  examTakers(takerSteps),
  regrade,
  certificatePdfs,
  certificateZip,
  censusList,
  coldStart,
  clusterTakers(clusterSteps),
];
const optIn = (scenario: Scenario): boolean => scenario.kind === 'measured' && scenario.optIn === true;

if (canPin) spawnSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' });

type Row = {
  scenario: string;
  subject: string;
  reference: string;
  'req/s ratio': string;
  ratio: string;
  target: string;
  verdict: string;
};
type Outcome = { row: Row; met: boolean };

// ---- throughput ------------------------------------------------------------------------------

async function expectSameAnswer(scenario: ThroughputScenario, subject: Running, reference: Running): Promise<void> {
  // The status too: a range asked for must come back as 206 from both, not as the whole file.
  const answer = async (endpoint: Endpoint, server: Running): Promise<unknown> => {
    const response = await fetch(`${server.baseUrl}${endpoint.path}`, {
      method: endpoint.method ?? 'GET',
      headers: { ...server.headers, ...(endpoint.body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(endpoint.body === undefined ? {} : { body: endpoint.body }),
    });
    if (!response.ok) throw new Error(`${endpoint.server} ${endpoint.path} answered ${response.status}`);
    const isJson = response.headers.get('content-type')?.startsWith('application/json') === true;
    return { status: response.status, body: isJson ? await response.json() : Buffer.from(await response.arrayBuffer()) };
  };
  const [fromSubject, fromReference] = [await answer(scenario.subject, subject), await answer(scenario.reference, reference)];
  if (!isDeepStrictEqual(fromSubject, fromReference)) throw new Error(`${scenario.name}: subject and reference answer differently`);
}

type Sample = { requestsPerSecond: number; cpuMsPerRequest: number | undefined };

async function load(endpoint: Endpoint, server: Running, durationSeconds: number): Promise<Sample> {
  const cpuBefore = cpuMsOf(server.child.pid);
  const result = await autocannon({
    url: `${server.baseUrl}${endpoint.path}`,
    method: endpoint.method ?? 'GET',
    headers: { ...server.headers, ...(endpoint.body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(endpoint.body === undefined ? {} : { body: endpoint.body }),
    connections,
    duration: durationSeconds,
  });
  const cpuAfter = cpuMsOf(server.child.pid);
  if (result.errors > 0 || result.non2xx > 0) {
    throw new Error(`${endpoint.server} ${endpoint.path}: ${result.errors} errors, ${result.non2xx} non-2xx answers`);
  }
  const cpuMsPerRequest =
    cpuBefore === undefined || cpuAfter === undefined || result.requests.total === 0 ? undefined : (cpuAfter - cpuBefore) / result.requests.total;
  return { requestsPerSecond: result.requests.average, cpuMsPerRequest };
}

async function runThroughput(scenario: ThroughputScenario): Promise<Outcome> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-bench-data-'));
  const shared: Record<string, string> = scenario.shareData ? { DATA_DIR: dataDir } : {};
  const subjectServer = await startServer(scenario.subject, shared).catch((error: unknown) => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  });
  let referenceServer: Running | undefined;
  try {
    referenceServer = await startServer(scenario.reference, shared);
    if (scenario.shareData) referenceServer.headers = subjectServer.headers;
    if (scenario.sameAnswer) await expectSameAnswer(scenario, subjectServer, referenceServer);
    const sides = [
      { endpoint: scenario.subject, server: subjectServer, samples: [] as Sample[] },
      { endpoint: scenario.reference, server: referenceServer, samples: [] as Sample[] },
    ];
    for (const side of sides) await load(side.endpoint, side.server, 2); // warm-up: JIT, caches, pools
    for (let round = 0; round < rounds; round += 1) {
      const order = round % 2 === 0 ? sides : [...sides].reverse();
      for (const side of order) side.samples.push(await load(side.endpoint, side.server, seconds));
      process.stdout.write('.');
    }
    const [subject, reference] = sides.map((side) => side.samples) as [Sample[], Sample[]];
    const rate = (samples: Sample[]): number => median(samples.map((s) => s.requestsPerSecond));
    const cpu = (samples: Sample[]): number | undefined =>
      samples.every((s) => s.cpuMsPerRequest !== undefined) ? median(samples.map((s) => s.cpuMsPerRequest as number)) : undefined;
    const [subjectCpu, referenceCpu] = [cpu(subject), cpu(reference)];
    const rateRatio = rate(subject) / rate(reference);
    const cpuRatio = subjectCpu === undefined || referenceCpu === undefined ? undefined : referenceCpu / subjectCpu;
    const ratio = cpuRatio ?? rateRatio;
    const describe = (samples: Sample[], cpuMs: number | undefined): string =>
      `${Math.round(rate(samples)).toLocaleString('en-US')} req/s` + (cpuMs === undefined ? '' : `, ${Math.round(cpuMs * 1000)} µs CPU/req`);
    return {
      met: ratio >= scenario.target,
      row: {
        scenario: scenario.name,
        subject: describe(subject, subjectCpu),
        reference: describe(reference, referenceCpu),
        'req/s ratio': rateRatio.toFixed(2),
        ratio: `${ratio.toFixed(2)} ${cpuRatio === undefined ? '(req/s)' : '(CPU/req)'}`,
        target: `≥ ${scenario.target.toFixed(2)}`,
        verdict: ratio >= scenario.target ? 'met' : 'BELOW TARGET',
      },
    };
  } finally {
    await Promise.all([stop(subjectServer.child), referenceServer === undefined ? undefined : stop(referenceServer.child)]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

// ---- cold start ------------------------------------------------------------------------------

type StartSample = { ms: number; cpuMs: number | undefined };

/**
 * `node <script>` and nothing else: free to use every core, as a real start is (the runner's
 * own pinning would be inherited otherwise: every core the machine has, not the runner's own
 * availableParallelism, which its pinning has made 1), and without NODE_OPTIONS, so no loader of
 * the bench's own sits in between.
 */
async function launch(target: Launch, dataDir: string, until?: () => boolean): Promise<StartSample> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, ...target.env };
  delete env.NODE_OPTIONS;
  const command = [process.execPath, target.script];
  const [file, ...args] = canPin ? ['taskset', '-c', `0-${os.cpus().length - 1}`, ...command] : command;
  const startedAt = performance.now();
  const child = spawn(file as string, args, { cwd: import.meta.dirname, env, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    await readyLine(child, target.ready, target.script);
    const sample = { ms: performance.now() - startedAt, cpuMs: cpuMsOf(child.pid) };
    for (const giveUpAt = performance.now() + 30_000; until !== undefined && !until(); ) {
      if (performance.now() > giveUpAt) throw new Error(`${target.script}: what its preparation waits for did not happen within 30 s`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return sample;
  } finally {
    await stop(child);
  }
}

async function runColdStart(scenario: ColdStartScenario): Promise<Outcome> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-bench-start-'));
  try {
    await scenario.prepare?.(dataDir, async (target, until) => void (await launch(target, dataDir, until)));
    const sides = [
      { target: scenario.subject, samples: [] as StartSample[] },
      { target: scenario.reference, samples: [] as StartSample[] },
    ];
    for (const side of sides) await launch(side.target, dataDir); // warm-up: the file-system cache
    for (let round = 0; round < starts; round += 1) {
      const order = round % 2 === 0 ? sides : [...sides].reverse();
      for (const side of order) side.samples.push(await launch(side.target, dataDir));
      process.stdout.write('.');
    }
    const [subject, reference] = sides.map((side) => side.samples) as [StartSample[], StartSample[]];
    const ms = (samples: StartSample[]): number => median(samples.map((s) => s.ms));
    const cpu = (samples: StartSample[]): number | undefined =>
      samples.every((s) => s.cpuMs !== undefined) ? median(samples.map((s) => s.cpuMs as number)) : undefined;
    const ratio = ms(reference) / ms(subject);
    const describe = (samples: StartSample[]): string => {
      const cpuMs = cpu(samples);
      return `${Math.round(ms(samples))} ms` + (cpuMs === undefined ? '' : `, ${Math.round(cpuMs)} ms CPU`);
    };
    const [subjectCpu, referenceCpu] = [cpu(subject), cpu(reference)];
    return {
      met: ratio >= scenario.target,
      row: {
        scenario: scenario.name,
        subject: describe(subject),
        reference: describe(reference),
        'req/s ratio': subjectCpu === undefined || referenceCpu === undefined ? '' : `CPU ${(referenceCpu / subjectCpu).toFixed(2)}`,
        ratio: `${ratio.toFixed(2)} (time)`,
        target: `≥ ${scenario.target.toFixed(2)} (goal ≤ ${scenario.goalMs} ms)`,
        verdict: ratio >= scenario.target ? 'met' : 'BELOW TARGET',
      },
    };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

// ---- measured by the scenario itself -----------------------------------------------------------

async function runMeasured(scenario: MeasuredScenario): Promise<Outcome> {
  const report = await scenario.run({ rounds, seconds, connections });
  return {
    met: report.met,
    row: {
      scenario: scenario.name,
      subject: report.subject,
      reference: report.reference,
      'req/s ratio': report.detail,
      ratio: report.ratio,
      target: report.target,
      verdict: report.met ? 'met' : 'BELOW TARGET',
    },
  };
}

// ---- the run ---------------------------------------------------------------------------------

console.log(
  `bench: ${rounds} alternating rounds × ${seconds} s per side, ${connections} connections; ${starts} alternating cold starts; ` +
    (canPin ? 'servers on core 0, load on core 1' : 'taskset not found: nothing pinned, figures are noisier'),
);
// Without --only every scenario runs but the opt-in ones (many minutes, services of their own), which run when named.
const selected = scenarios.filter((s) => (options.only === undefined ? !optIn(s) : s.name.includes(options.only)));
const leftOut = options.only === undefined ? scenarios.filter(optIn) : [];
if (leftOut.length > 0) console.log(`left out, run only when named by --only: ${leftOut.map((s) => JSON.stringify(s.name)).join(', ')}`);
if (selected.length === 0) {
  // Otherwise a misspelt --only (or a file name instead of a scenario's) "passes" having run nothing.
  console.error(`--only ${JSON.stringify(options.only)} names no scenario; they are:\n${scenarios.map((s) => `  ${s.name}${optIn(s) ? ' (opt-in: runs only when named)' : ''}`).join('\n')}`);
  process.exit(2);
}
const outcomes: Outcome[] = [];
for (const scenario of selected) {
  process.stdout.write(`${scenario.name} `);
  outcomes.push(
    scenario.kind === 'throughput' ? await runThroughput(scenario) : scenario.kind === 'cold-start' ? await runColdStart(scenario) : await runMeasured(scenario),
  );
  process.stdout.write('\n');
}

console.log('');
console.table(outcomes.map((outcome) => outcome.row));
process.exit(outcomes.every((o) => o.met) ? 0 : 1);
