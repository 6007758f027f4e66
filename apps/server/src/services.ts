import type { FastifyBaseLogger } from 'fastify';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import type { AppDatabase } from './db/database.js';
import { JobRunner } from './jobs/job-runner.js';
import { AuthService } from './modules/auth/auth.service.js';
import { SessionService } from './modules/auth/session.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}

/** The app's services, built once and handed to each module's routes. */
export type Services = {
  config: Config;
  database: AppDatabase;
  /** Where every service takes the time from (a settable one in tests). */
  clock: Clock;
  /** Modules register their job handlers on it; main.ts starts it, closing the app stops it. */
  jobs: JobRunner;
  sessions: SessionService;
  auth: AuthService;
};

export async function createServices(
  config: Config,
  database: AppDatabase,
  { clock = systemClock, log }: { clock?: Clock | undefined; log: FastifyBaseLogger },
): Promise<Services> {
  const jobs = new JobRunner({ db: database.db, clock, log });
  const sessions = await SessionService.create(database.db, clock);
  const auth = new AuthService({ db: database.db, sessions, captchaEnabled: config.captchaEnabled, clock });
  return { config, database, clock, jobs, sessions, auth };
}
