import { afterAll, afterEach } from 'vitest';
import { takeConsoleProblems } from './browser.js';
import { traceFailure } from './page-trace.js';

// A setup file (vitest.config.ts): its hooks wrap every test of every journey. A console error or
// warning, or an uncaught exception, in any page the test opened fails that test. The journeys'
// own afterEach hooks (closing contexts) run before this one, so late messages are in.
function consoleProblems(when: string): Error | undefined {
  const problems = takeConsoleProblems();
  if (problems.length === 0) return undefined;
  return new Error(`The app logged ${problems.length} console problem(s) ${when}:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
}

// The pages a journey shares between its steps are still open here: their trace shows the problem's surroundings.
afterEach(async ({ task }) => {
  const error = consoleProblems('during this test');
  if (error === undefined) return;
  await traceFailure(error, task);
  throw error;
});
afterAll(() => {
  const error = consoleProblems('after the last test of the file');
  if (error !== undefined) throw error;
});
