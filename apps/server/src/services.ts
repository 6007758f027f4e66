import type { Config } from './config.js';
import type { AppDatabase } from './db/database.js';
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
  sessions: SessionService;
  access: AccessService;
  depts: DeptService;
  roles: RoleService;
  users: UserService;
  auth: AuthService;
};

export async function createServices(config: Config, database: AppDatabase): Promise<Services> {
  const { db } = database;
  const sessions = await SessionService.create(db);
  const access = new AccessService(db);
  const depts = new DeptService(db, access);
  const roles = new RoleService(db, access, depts);
  const users = new UserService({ db, sessions, dataDir: config.dataDir, access, roles, depts });
  const auth = new AuthService({ db, sessions, users, access, captchaEnabled: config.captchaEnabled });
  return { config, database, sessions, access, depts, roles, users, auth };
}
