import { defineProject } from 'vitest/config';
import { sharedSourceAlias } from '../../vitest.workspace-alias.js';

export default defineProject({
  resolve: { alias: sharedSourceAlias },
  test: {
    name: 'server',
    include: ['src/**/*.test.ts'],
    environment: 'node',
    // The server runs in the organisation's zone (main.ts sets the process's zone from `TZ`, default
    // Asia/Shanghai): tests written with local dates run the same on a machine in any zone.
    env: { TZ: 'Asia/Shanghai' },
    globalSetup: ['src/test/global-setup.ts'],
    // Each file opens its own database; PostgreSQL files share one server.
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
