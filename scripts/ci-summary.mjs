// .ci/run's last lines: the journeys that passed only on their retry, then one line of totals
// over every `run-tests.mjs` run CI made (each appends its totals to the file given).
import fs from 'node:fs';
import { closingLines } from './test-report.mjs';

const runs = fs.readFileSync(process.argv[2], 'utf8').trim().split('\n').map((line) => JSON.parse(line));
const totals = runs.reduce(
  (sum, run) => ({ passed: sum.passed + run.passed, failed: sum.failed + run.failed, skipped: sum.skipped + run.skipped, flaky: [...sum.flaky, ...run.flaky] }),
  { passed: 0, failed: 0, skipped: 0, flaky: [] },
);
console.log(closingLines(totals, 'ci: ').join('\n'));
