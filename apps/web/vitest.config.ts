import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';
import { sharedSourceAlias } from '../../vitest.workspace-alias.js';

export default defineProject({
  plugins: [react()],
  resolve: { alias: sharedSourceAlias },
  test: {
    name: 'web',
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    setupFiles: ['src/test/setup.ts'],
  },
});
