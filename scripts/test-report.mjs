// What a stage's Vitest JSON report says, for scripts/run-tests.mjs and .ci/run's closing lines.
import path from 'node:path';

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));

/** The first lines of a failure, without its stack, and the trace e2e/journey-runner.ts named in it. */
function describeFailure(message) {
  // eslint-disable-next-line no-control-regex -- Playwright colours its call log with escape sequences
  const lines = message.replace(/\u001b\[[0-9;]*m/g, '').split('\n');
  const stackStart = lines.findIndex((line) => /^\s+at /.test(line));
  const head = (stackStart === -1 ? lines : lines.slice(0, stackStart)).filter((line) => line.trim() !== '');
  const trace = message.match(/^trace: (\S+)/m)?.[1] ?? null;
  return { firstFailure: head.filter((line) => !line.startsWith('trace: ') && !/^\s+page-\d+: /.test(line)).slice(0, 3).join('\n'), trace };
}

/**
 * Tests that passed on a retry. Vitest 4.1's JSON report has no retry count, but a test keeps the
 * errors of its failed attempts when a retry passes, and a test that passed at once has none.
 */
export function flakyTests(report) {
  return report.testResults.flatMap((file) =>
    file.assertionResults
      .filter((test) => test.status === 'passed' && test.failureMessages.length > 0)
      .map((test) => ({ name: [path.relative(root, file.name), ...test.ancestorTitles, test.title].join(' > '), ...describeFailure(test.failureMessages[0]) })),
  );
}

/** The "flaky:" listing (nothing when none was) and the closing line, flaky ones counted among the passed too. */
export function closingLines(totals, prefix = '') {
  const lines = [];
  if (totals.flaky.length > 0) {
    lines.push('flaky:');
    for (const test of totals.flaky) {
      lines.push(`  ${test.name}`, ...test.firstFailure.split('\n').map((line) => `    ${line}`));
      lines.push(`    trace: ${test.trace ?? 'none (no page was open)'}`);
    }
  }
  lines.push(`${prefix}${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped, ${totals.flaky.length} flaky`);
  return lines;
}
