// `npm run bench`: each scenario's subject against its reference, measured in the same run.
// Servers run on core 0 and the load generator on core 1 (where taskset exists); rounds
// alternate which side goes first; the medians are compared, so a noisy machine shows up as
// spread between rounds rather than as a wrong ratio.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import autocannon from 'autocannon';
import type { Endpoint, Scenario } from './scenario.js';
import { health } from './scenarios/health.js';
import { menusBuild } from './scenarios/menus-build.js';

const scenarios: Scenario[] = [health, menusBuild];

const { values: options } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10' },
    only: { type: 'string' },
  },
});
const rounds = Number(options.rounds);
const seconds = Number(options.seconds);
const connections = Number(options.connections);

const canPin = spawnSync('taskset', ['--version']).status === 0;
if (canPin) spawnSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' });

type Running = { baseUrl: string; headers: Record<string, string>; child: ChildProcess };

async function startServer(endpoint: Endpoint, env: Record<string, string> = {}): Promise<Running> {
  const command = [process.execPath, '--import', 'tsx', endpoint.server];
  const [file, ...args] = canPin ? ['taskset', '-c', '0', ...command] : command;
  const child = spawn(file as string, args, {
    cwd: import.meta.dirname,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /ready (\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`${endpoint.server} exited with ${code}`)));
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const headers = (await endpoint.prepare?.(baseUrl)) ?? {};
  return { baseUrl, headers, child };
}

async function stopServer({ child }: Running): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

async function expectSameAnswer(scenario: Scenario, subject: Running, reference: Running): Promise<void> {
  const answer = async (endpoint: Endpoint, server: Running): Promise<unknown> => {
    const response = await fetch(`${server.baseUrl}${endpoint.path}`, { headers: server.headers });
    if (!response.ok) throw new Error(`${endpoint.server} ${endpoint.path} answered ${response.status}`);
    return response.json();
  };
  const [fromSubject, fromReference] = [await answer(scenario.subject, subject), await answer(scenario.reference, reference)];
  if (!isDeepStrictEqual(fromSubject, fromReference)) throw new Error(`${scenario.name}: subject and reference answer differently`);
}

type Sample = { requestsPerSecond: number };

async function load(endpoint: Endpoint, server: Running, durationSeconds: number): Promise<Sample> {
  const result = await autocannon({
    url: `${server.baseUrl}${endpoint.path}`,
    method: endpoint.method ?? 'GET',
    headers: { ...server.headers, ...(endpoint.body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(endpoint.body === undefined ? {} : { body: endpoint.body }),
    connections,
    duration: durationSeconds,
  });
  if (result.errors > 0 || result.non2xx > 0) {
    throw new Error(`${endpoint.server} ${endpoint.path}: ${result.errors} errors, ${result.non2xx} non-2xx answers`);
  }
  return { requestsPerSecond: result.requests.average };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

type Outcome = { scenario: Scenario; subject: Sample[]; reference: Sample[]; ratio: number };

async function runScenario(scenario: Scenario): Promise<Outcome> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-bench-data-'));
  const shared: Record<string, string> = scenario.shareData ? { DATA_DIR: dataDir } : {};
  const subjectServer = await startServer(scenario.subject, shared);
  const referenceServer = await startServer(scenario.reference, shared);
  if (scenario.shareData) referenceServer.headers = subjectServer.headers;
  if (scenario.sameAnswer) await expectSameAnswer(scenario, subjectServer, referenceServer);
  try {
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
    const ratio = median(subject.map((s) => s.requestsPerSecond)) / median(reference.map((s) => s.requestsPerSecond));
    return { scenario, subject, reference, ratio };
  } finally {
    await Promise.all([stopServer(subjectServer), stopServer(referenceServer)]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(
  `bench: ${rounds} rounds × ${seconds} s, ${connections} connections; ` +
    (canPin ? 'servers on core 0, load on core 1' : 'taskset not found: nothing pinned, figures are noisier'),
);
const selected = scenarios.filter((s) => options.only === undefined || s.name.includes(options.only));
const outcomes: Outcome[] = [];
for (const scenario of selected) {
  process.stdout.write(`${scenario.name} `);
  outcomes.push(await runScenario(scenario));
  process.stdout.write('\n');
}

const rate = (samples: Sample[]): string => Math.round(median(samples.map((s) => s.requestsPerSecond))).toLocaleString('en-US');
console.log('');
console.table(
  outcomes.map(({ scenario, subject, reference, ratio }) => ({
    scenario: scenario.name,
    'subject req/s': rate(subject),
    'reference req/s': rate(reference),
    ratio: ratio.toFixed(2),
    target: `≥ ${scenario.target.toFixed(2)}`,
    verdict: ratio >= scenario.target ? 'met' : 'BELOW TARGET',
  })),
);
process.exit(outcomes.every((o) => o.ratio >= o.scenario.target) ? 0 : 1);
