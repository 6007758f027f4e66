// Bundles the compiled server (apps/server/dist/main.js, from `tsc -b`) into one CommonJS file,
// apps/server/dist/server-bundle.cjs, and writes the launcher apps/server/dist/server.js, which
// `npm start`, the browser journeys and the bench run.
// Why one file: resolving, reading and compiling about 1,100 separate modules (kysely alone is 260)
// was most of the cold start. Why CommonJS and a launcher: Node 20 keeps no compiled code between
// runs, so the launcher compiles the bundle through vm.Script with V8's code cache, written after
// the first start of each build; a restart then skips parsing and compiling (about 0.5 s of a 0.9 s
// cold start; Node 22's module.enableCompileCache would do the same, Node 20 has none).
// Both sit beside main.js so that the paths main.js and app.js build from import.meta.url
// (../package.json, ../../web/dist) mean the same from either file.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

// Packages the server imports lazily (`await import('pg')`): the bundle gets them through require(),
// wrapped as a module of its own so that the import still waits until first use. An import() left
// in the bundle would fail: the code cache does not keep vm.Script's dynamic-import callback.
const LAZY = ['svg-captcha', 'pg', 'exceljs', 'mp4box', 'pdf-lib', 'sanitize-html', 'pdfkit', 'fontkit', 'qrcode', 'yazl', 'prom-client', '@aws-sdk/client-s3', '@aws-sdk/s3-request-presigner'];
const lazyRequire = {
  name: 'lazy-require',
  setup(pluginBuild) {
    const filter = new RegExp(`^(${LAZY.join('|')})$`);
    pluginBuild.onResolve({ filter }, (args) =>
      args.kind === 'dynamic-import' ? { path: args.path, namespace: 'lazy-require' } : { path: args.path, external: true },
    );
    pluginBuild.onLoad({ filter: /.*/, namespace: 'lazy-require' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
  },
};

// Packages that read their own files from __dirname (Swagger UI its pages and logo): bundled, with
// __dirname pointing into the installed package, found at run time as the rest of node_modules is.
const OWN_FILES = ['@fastify/swagger-ui'];
const ownFiles = {
  name: 'own-files',
  setup(pluginBuild) {
    for (const name of OWN_FILES) {
      const packageDir = path.dirname(createRequire(import.meta.url).resolve(`${name}/package.json`));
      pluginBuild.onLoad({ filter: new RegExp(`node_modules/${name}/.*\\.js$`) }, (args) => {
        const within = JSON.stringify(path.relative(packageDir, path.dirname(args.path)));
        const realDir = `require('node:path').join(require('node:path').dirname(require.resolve('${name}/package.json')), ${within})`;
        return { contents: `var __dirname = ${realDir};\n${fs.readFileSync(args.path, 'utf8')}`, loader: 'js' };
      });
    }
  },
};

// Packages required at start but used only by some requests (yaml: the OpenAPI document as YAML,
// 25 ms to load): a stand-in that loads the package on first use.
const ON_FIRST_USE = ['yaml'];
const onFirstUse = {
  name: 'on-first-use',
  setup(pluginBuild) {
    const filter = new RegExp(`^(${ON_FIRST_USE.join('|')})$`);
    pluginBuild.onResolve({ filter }, (args) =>
      args.namespace === 'on-first-use' ? undefined : { path: args.path, namespace: 'on-first-use', pluginData: args.resolveDir },
    );
    pluginBuild.onLoad({ filter: /.*/, namespace: 'on-first-use' }, (args) => ({
      contents: `let loaded; module.exports = new Proxy({}, { get: (_, key) => (loaded ??= require(${JSON.stringify(args.path)}))[key] });`,
      resolveDir: args.pluginData,
      loader: 'js',
    }));
  },
};

const distDir = path.join(path.dirname(path.dirname(fileURLToPath(import.meta.url))), 'apps/server/dist');
const bundleFile = path.join(distDir, 'server-bundle.cjs');

await build({
  entryPoints: [path.join(distDir, 'main.js')],
  outfile: bundleFile,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node22',
  // Smaller to parse, while stack traces in the error log keep their function names.
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  // Left as packages: native add-ons; LAZY above stay packages too.
  external: ['better-sqlite3', '@node-rs/argon2', ...OWN_FILES.map((name) => `${name}/package.json`)],
  plugins: [lazyRequire, ownFiles, onFirstUse],
  // The sources are ES modules that find their files from import.meta.url.
  define: { 'import.meta.url': '__bundleUrl' },
  banner: { js: "const __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  logLevel: 'warning',
});

// The cache is named after the bundle's content: V8 checks only a cached script's length, so a
// cache from another build of the same length would otherwise be taken for this one.
const buildId = crypto.createHash('sha256').update(fs.readFileSync(bundleFile)).digest('hex').slice(0, 16);
// Caches of other builds go; this build's stays, as a rebuild of unchanged code (every
// `npm start` builds first) gives the same bundle.
const cacheName = `server-bundle.${buildId}.code-cache`;
for (const name of fs.readdirSync(distDir)) {
  if (name.startsWith('server-bundle.') && name.includes('.code-cache') && name !== cacheName) fs.rmSync(path.join(distDir, name), { force: true });
}

const launcher = `// Written by scripts/bundle-server.mjs: runs server-bundle.cjs, compiled with V8's code cache.
import fs from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const dir = path.dirname(fileURLToPath(import.meta.url));
const file = path.join(dir, 'server-bundle.cjs');
const cacheFile = path.join(dir, '${cacheName}');
let cachedData;
try {
  cachedData = fs.readFileSync(cacheFile);
} catch {
  // First start of this build.
}
const script = new vm.Script(Module.wrap(fs.readFileSync(file, 'utf8')), {
  filename: file,
  cachedData,
});
const bundle = new Module(file);
bundle.filename = file;
bundle.paths = Module._nodeModulePaths(dir);
script.runInThisContext().call(bundle.exports, bundle.exports, createRequire(file), bundle, file, dir);

if (cachedData === undefined || script.cachedDataRejected) {
  // Written a while after start, so that it holds the functions the start itself compiled; a
  // process that ends sooner, or a folder it may not write to, leaves the next start uncached.
  setTimeout(() => {
    try {
      const partial = \`\${cacheFile}.\${process.pid}\`;
      fs.writeFileSync(partial, script.createCachedData());
      fs.renameSync(partial, cacheFile);
    } catch {
      // Only a slower start follows.
    }
  }, 3000).unref();
}
`;
fs.writeFileSync(path.join(distDir, 'server.js'), launcher);
