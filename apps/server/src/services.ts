import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import type { AppDatabase } from './db/database.js';
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
  sessions: SessionService;
  auth: AuthService;
};

export async function createServices(config: Config, database: AppDatabase, clock: Clock = systemClock): Promise<Services> {
  const sessions = await SessionService.create(database.db, clock);
  const auth = new AuthService({ db: database.db, sessions, captchaEnabled: config.captchaEnabled, clock });
  return { config, database, clock, sessions, auth };
}
