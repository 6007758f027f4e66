// The cold-start reference: the least a Node.js process does to listen on a port. Plain
// JavaScript, so that node starts it with no loader in between, like the compiled server.
import http from 'node:http';

const server = http.createServer((_request, response) => response.end('{}'));
server.listen(0, '127.0.0.1', () => process.stdout.write(`ready ${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
