import { defineConfig } from 'vitest/config';

/**
 * The cluster journeys (cluster.cluster.ts): two built servers behind nginx on PostgreSQL, started
 * by the journeys themselves, which kill, pause and restart them. Run by `.ci/run` after the server
 * suite on PostgreSQL (`node scripts/run-tests.mjs --stage cluster`), after `npm run build`.
 */
export default defineConfig({
  test: {
    name: 'cluster',
    root: new URL('.', import.meta.url).pathname,
    include: ['**/*.cluster.ts'],
    setupFiles: ['../console-guard.ts'],
    runner: '../journey-runner.ts',
    onStackTrace: (_error, frame) => !frame.file.endsWith('/e2e/page-trace.ts'),
    // As the other journeys: a step that fails is run once more, and one that passes only then is listed as flaky.
    retry: 1,
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 120_000,
  },
});
