import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import type { AppDatabase } from './db/database.js';
import { JobRunner, type JobLog } from './jobs/job-runner.js';
import { AccessService } from './modules/access/access.service.js';
import { AuthService } from './modules/auth/auth.service.js';
import { SessionService } from './modules/auth/session.service.js';
import { DeptService } from './modules/depts/depts.service.js';
import { RoleService } from './modules/roles/roles.service.js';
import { UserService } from './modules/users/users.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}

/** The app's services that other modules call too, built once and handed to each module's routes. */
export type Services = {
  config: Config;
  database: AppDatabase;
  /** Where every service takes the time from (a settable one in tests). */
  clock: Clock;
  /** Modules register their job handlers on it; main.ts starts it, closing the app stops it. */
  jobs: JobRunner;
  sessions: SessionService;
  access: AccessService;
  depts: DeptService;
  roles: RoleService;
  users: UserService;
  auth: AuthService;
};

// A console command builds the services without an app, so without the app's logger.
const consoleLog: JobLog = {
  warn: (details: unknown, message?: string) => console.warn(message, details),
  error: (details: unknown, message?: string) => console.error(message, details),
};

export async function createServices(
  config: Config,
  database: AppDatabase,
  { clock = systemClock, log = consoleLog }: { clock?: Clock | undefined; log?: JobLog } = {},
): Promise<Services> {
  const { db } = database;
  const jobs = new JobRunner({ db, clock, log });
  const sessions = await SessionService.create(db, clock);
  const access = new AccessService(db);
  const depts = new DeptService(db, access, clock);
  const roles = new RoleService(db, access, depts, clock);
  const users = new UserService({ db, sessions, dataDir: config.dataDir, access, roles, depts, clock });
  const auth = new AuthService({ db, sessions, users, access, captchaEnabled: config.captchaEnabled, clock });
  return { config, database, clock, jobs, sessions, access, depts, roles, users, auth };
}
