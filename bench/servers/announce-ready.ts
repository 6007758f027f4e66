import type { Server } from 'node:http';

/** Tells the bench runner, on stdout, which port the server under test listens on. */
export function announceReady(server: Server): void {
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('server has no address');
  process.stdout.write(`ready ${address.port}\n`);
}
