import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'e2e',
    root: new URL('.', import.meta.url).pathname,
    include: ['**/*.e2e.ts'],
    globalSetup: ['./global-setup.ts'],
    // Fails any journey whose pages log a console error or warning (see console-guard.ts).
    setupFiles: ['./console-guard.ts'],
    // One server and one browser at a time: the journeys share the machine's two cores.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
