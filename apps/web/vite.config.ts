import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { sharedSourceAlias } from '../../vitest.workspace-alias.js';

const apiTarget = process.env.API_TARGET ?? 'http://127.0.0.1:8000';

export default defineConfig({
  plugins: [react()],
  resolve: { alias: sharedSourceAlias },
  build: {
    target: 'es2022',
    // The server precompresses after the build (scripts/precompress.mjs); reporting gzip here twice is noise.
    reportCompressedSize: false,
  },
  server: {
    proxy: {
      '/api': apiTarget,
      '/auth': apiTarget,
      '/avatar': apiTarget,
      '/file': apiTarget,
      '/swagger-ui.html': apiTarget,
      '/websocket': { target: apiTarget, ws: true },
    },
  },
});
