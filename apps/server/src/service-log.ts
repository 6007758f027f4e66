import type { FastifyBaseLogger } from 'fastify';

/** What services write their warnings to: the app's logger, or the console in a console command. */
export type ServiceLog = Pick<FastifyBaseLogger, 'warn' | 'error'>;

// A console command builds the services without an app, so without the app's logger.
export const consoleLog: ServiceLog = {
  warn: (details: unknown, message?: string) => console.warn(message, details),
  error: (details: unknown, message?: string) => console.error(message, details),
};
