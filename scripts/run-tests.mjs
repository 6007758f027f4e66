// `npm test`: every Vitest project (shared, server, web), then the browser journeys against the
// built app. Ends with one plain line "N passed, N failed, N skipped, N flaky" that any CI can
// read, after the list of journeys that passed only on their retry (e2e/vitest.config.ts).
// `--stage <name>` runs one stage only (CI reruns the server stage on PostgreSQL).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { closingLines, flakyTests } from './test-report.mjs';

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const resultsDir = path.join(root, 'artifacts', 'test-results');

// Vitest keeps a core for itself by default (one worker on a two-core machine), but its main
// process idles once the files are transformed, and on PostgreSQL the server tests spend much
// of their time waiting for the database: a worker per core, and one more on PostgreSQL. The
// test files are independent (each test its own SQLite file or PostgreSQL schema).
const cores = os.availableParallelism();
const workers = (extra = 0) => `--maxWorkers=${cores + extra}`;
const onPostgres = (process.env.TEST_DATABASE_URL ?? '') !== '';

const stages = {
  unit: { before: [], vitest: [workers()] },
  server: { before: [], vitest: ['--project', 'server', workers(onPostgres ? 1 : 0)] },
  e2e: { before: [['npm', ['run', 'build']]], vitest: ['--config', 'e2e/vitest.config.ts'] },
  // The journeys that check the runtime itself, on the build the e2e stage made (.ci/run runs them on Node 22).
  runtime: { before: [], vitest: ['--config', 'e2e/vitest.config.ts', 'start.e2e.ts', 'restart.e2e.ts', 'answer-durability.e2e.ts', 'smoke.e2e.ts'] },
  // Two built servers behind nginx on PostgreSQL (e2e/cluster/): run by .ci/run after the e2e stage built them.
  cluster: { before: [], vitest: ['--config', 'e2e/cluster/vitest.config.ts'] },
};
const defaultStages = ['unit', 'e2e'];

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: process.env });
  return result.status ?? 1;
}

function runStage(name) {
  const stage = stages[name];
  for (const [command, args] of stage.before) {
    if (run(command, args) !== 0) return { name, passed: 0, failed: 1, skipped: 0, flaky: [], broken: true };
  }
  fs.mkdirSync(resultsDir, { recursive: true });
  const report = path.join(resultsDir, `${name}${process.env.TEST_RESULTS_SUFFIX ?? ''}.json`);
  fs.rmSync(report, { force: true });
  const status = run('npx', ['vitest', 'run', ...stage.vitest, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`]);
  if (!fs.existsSync(report)) return { name, passed: 0, failed: 1, skipped: 0, flaky: [], broken: true };
  const json = JSON.parse(fs.readFileSync(report, 'utf8'));
  const failed = json.numFailedTests + (status !== 0 && json.numFailedTests === 0 ? 1 : 0);
  return { name, passed: json.numPassedTests, failed, skipped: json.numPendingTests + json.numTodoTests, flaky: flakyTests(json), broken: status !== 0 };
}

const argIndex = process.argv.indexOf('--stage');
const selected = argIndex === -1 ? defaultStages : [process.argv[argIndex + 1]];
const unknown = selected.filter((name) => !(name in stages));
if (unknown.length > 0) {
  console.error(`unknown stage ${unknown.join(', ')}; stages: ${Object.keys(stages).join(', ')}`);
  process.exit(2);
}

const results = selected.map(runStage);
const total = results.reduce(
  (sum, r) => ({ passed: sum.passed + r.passed, failed: sum.failed + r.failed, skipped: sum.skipped + r.skipped, flaky: [...sum.flaky, ...r.flaky] }),
  { passed: 0, failed: 0, skipped: 0, flaky: [] },
);
console.log('');
for (const r of results) {
  console.log(`  ${r.name.padEnd(8)} ${r.passed} passed, ${r.failed} failed, ${r.skipped} skipped, ${r.flaky.length} flaky${r.broken ? '  (FAILED)' : ''}`);
}
if (process.env.TEST_TOTALS_FILE) fs.appendFileSync(process.env.TEST_TOTALS_FILE, `${JSON.stringify(total)}\n`);
console.log(closingLines(total).join('\n'));
process.exit(results.some((r) => r.broken) ? 1 : 0);
