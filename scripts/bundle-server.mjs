// Bundles the compiled server (apps/server/dist/main.js, from `tsc -b`) into one file,
// apps/server/dist/server.js, which `npm start`, the browser journeys and the bench run.
// Why: resolving, reading and compiling about 1,100 separate modules (kysely alone is 260) was most
// of the cold start; one file cut the server's CPU time to listening by about 40 %.
// It sits beside main.js so that the paths main.js and app.js build from import.meta.url
// (../package.json, ../../web/dist) mean the same from either file.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const serverDir = path.join(path.dirname(path.dirname(fileURLToPath(import.meta.url))), 'apps/server');

await build({
  entryPoints: [path.join(serverDir, 'dist/main.js')],
  outfile: path.join(serverDir, 'dist/server.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Smaller to parse, while stack traces in the error log keep their function names.
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  // Left as packages: native add-ons; packages that read their own files at run time (the
  // captcha's fonts, Swagger UI's pages); the heavy ones only some starts use, imported lazily.
  external: ['better-sqlite3', '@node-rs/argon2', 'svg-captcha', '@fastify/swagger-ui', 'pg', 'exceljs'],
  // The bundled CommonJS code calls require() for Node's own modules.
  banner: { js: "import { createRequire as bundledRequire } from 'node:module'; const require = bundledRequire(import.meta.url);" },
  logLevel: 'warning',
});
