import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'e2e',
    root: new URL('.', import.meta.url).pathname,
    include: ['**/*.e2e.ts'],
    globalSetup: ['./global-setup.ts'],
    // Fails any journey whose pages log a console error or warning (see console-guard.ts).
    setupFiles: ['./console-guard.ts'],
    // A failed step leaves a trace of its pages; a retry starts on them reloaded.
    runner: './journey-runner.ts',
    // page-trace.ts notes each locator a step uses on its way to Playwright: not a frame worth showing.
    onStackTrace: (_error, frame) => !frame.file.endsWith('/e2e/page-trace.ts'),
    // A step that fails is run once more, on its own (see skipAfterAFailure in browser.ts): a
    // browser on a loaded machine flakes in ways the product does not. One that passes only then
    // passes, and scripts/run-tests.mjs lists it as flaky with its first failure. The unit and
    // server projects never retry: a flaky test there is a bug.
    retry: 1,
    // One server and one browser at a time: the journeys share the machine's two cores.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
