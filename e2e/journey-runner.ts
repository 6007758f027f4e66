import { TestRunner, type RunnerTestCase } from 'vitest';
import { reloadOpenPages, traceFailure } from './page-trace.js';

/**
 * The journeys' test runner (vitest.config.ts): Vitest's own, with two things around each attempt
 * of a step. A failed attempt leaves a trace of its pages while they are still as the failure
 * left them: this hook runs before any afterEach, and the journeys' own afterEach hooks may close
 * their pages. And before a retry, the pages still open are reloaded (see reloadOpenPages).
 */
export default class JourneyRunner extends TestRunner {
  override async onBeforeTryTask(test: RunnerTestCase, options?: { retry: number }): Promise<void> {
    super.onBeforeTryTask(test);
    if ((options?.retry ?? 0) > 0) await reloadOpenPages();
  }

  async onTaskFinished(test: RunnerTestCase): Promise<void> {
    const error = test.result?.state === 'fail' ? test.result.errors?.at(-1) : undefined;
    if (error !== undefined) await traceFailure(error, test);
  }
}
