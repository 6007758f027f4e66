import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sendNotFound } from './error-handler.js';
import { isApiPath } from './route-access.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE = 'no-cache';

/** Every file under `dir` as a URL path (`/assets/index-1a2b.js`), the compressed copies included. */
function listFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => `/${path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/')}`);
}

/**
 * Serves the built single-page app: hashed assets cached for a year (precompressed .br/.gz
 * beside them), index.html never cached, and history-mode fallback so a deep link or a reload
 * of any client route gets the app. API paths never fall back: they answer JSON 404s.
 */
export async function registerWebApp(app: FastifyInstance, distDir: string): Promise<void> {
  if (!fs.existsSync(path.join(distDir, 'index.html'))) {
    throw new Error(`The web app is not built: ${path.join(distDir, 'index.html')} is missing`);
  }
  // Loaded here, not at the top: a server started without the web app (API only, tests) has no use for it.
  const { default: fastifyStatic } = await import('@fastify/static');
  // One wildcard route let through only for the files the build produced, listed once here:
  // unknown paths reach the fallback below without a file-system probe. (One route per file,
  // fastify-static's other mode, cost a sixth of the cold start in route compiling.)
  const files = new Set(listFiles(distDir));
  await app.register(fastifyStatic, {
    root: distDir,
    // The fallback's sendFile('index.html') asks without the leading slash.
    allowedPath: (pathname) => pathname === '/' || files.has(pathname.startsWith('/') ? pathname : `/${pathname}`),
    preCompressed: true,
    cacheControl: false,
    setHeaders(reply, filePath) {
      const relative = path.relative(distDir, filePath);
      reply.header('cache-control', relative.startsWith(`assets${path.sep}`) ? IMMUTABLE : REVALIDATE);
    },
  });
  app.setNotFoundHandler((request, reply) => {
    // A missing hashed asset is a stale page from before a deploy: a 404 lets the browser see it
    // fail, where index.html would arrive as a script with the wrong MIME type.
    if (isApiPath(request.url) || request.url.startsWith('/assets/') || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return sendNotFound(request, reply);
    }
    return reply.header('cache-control', REVALIDATE).sendFile('index.html');
  });
}
