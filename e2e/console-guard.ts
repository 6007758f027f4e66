import { afterAll, afterEach } from 'vitest';
import { takeConsoleProblems } from './browser.js';

// A setup file (vitest.config.ts): its hooks wrap every test of every journey. A console error or
// warning, or an uncaught exception, in any page the test opened fails that test. The journeys'
// own afterEach hooks (closing contexts) run before this one, so late messages are in.
function failOnConsoleProblems(when: string): void {
  const problems = takeConsoleProblems();
  if (problems.length > 0) {
    throw new Error(`The app logged ${problems.length} console problem(s) ${when}:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
  }
}

afterEach(() => failOnConsoleProblems('during this test'));
afterAll(() => failOnConsoleProblems('after the last test of the file'));
