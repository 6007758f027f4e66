// The reference: the least a Node.js server can do to give the same answer: build the same
// object, stringify it, write it. No routing, no validation, no hooks.
import http from 'node:http';
import { announceReady } from './announce-ready.js';

const server = http.createServer((_request, response) => {
  const body = JSON.stringify({
    status: 'UP',
    version: '0.1.0',
    uptimeSeconds: Math.round(process.uptime()),
    database: 'sqlite',
  });
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  response.end(body);
});
server.listen(0, '127.0.0.1', () => announceReady(server));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
