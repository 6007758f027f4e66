import { defineProject } from 'vitest/config';
import { sharedSourceAlias } from '../../vitest.workspace-alias.js';

export default defineProject({
  resolve: { alias: sharedSourceAlias },
  test: {
    name: 'server',
    include: ['src/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['src/test/global-setup.ts'],
    // Each file opens its own database; PostgreSQL files share one server.
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
