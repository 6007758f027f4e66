import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * The Content-Security-Policy of every answer, app and API alike (a JSON answer opened in a tab,
 * or an error page, is a document too).
 */
function contentSecurityPolicy(frameAncestors: string): string {
  return [
    "default-src 'self'",
    // The built app loads its scripts from /assets only; index.html holds no inline script.
    "script-src 'self'",
    // antd (CSS-in-JS) injects <style> elements at run time, and React and Swagger UI write
    // style attributes: neither can carry a nonce, so inline styles must be allowed. Styles
    // cannot run code, and scripts stay locked to the app's own files.
    "style-src 'self' 'unsafe-inline'",
    // data: for the login captcha (an SVG data URL) and Swagger UI's icons; blob: for previews.
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    // 'self' covers the websocket (ws:/wss: to the same host) too.
    "connect-src 'self'",
    // The back office frames Swagger UI, from the same origin.
    "frame-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-ancestors ${frameAncestors}`,
  ].join('; ');
}

const common = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
};
const unframed = { ...common, 'content-security-policy': contentSecurityPolicy("'none'"), 'x-frame-options': 'DENY' };
// Swagger UI is a tab of the back office (features/swagger), in a frame of the same origin.
const framedBySelf = { ...common, 'content-security-policy': contentSecurityPolicy("'self'"), 'x-frame-options': 'SAMEORIGIN' };

const isSwaggerUi = (url: string) => url.startsWith('/swagger-ui');

/** Sets the security headers an answer to `url` carries. */
export function setSecurityHeaders(reply: FastifyReply, url: string): void {
  reply.headers(isSwaggerUi(url) ? framedBySelf : unframed);
}

/**
 * Security headers on every answer, whatever route, file, redirect or error it is: set when the
 * request arrives, before anything can fail, so the error handler's answers carry them too.
 * Register before the routes.
 */
// Answers the router gives before any hook runs (see `answerFrameworkError`) set them themselves.
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    setSecurityHeaders(reply, request.url);
    done();
  });
}
