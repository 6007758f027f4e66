import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { AppDatabase } from './db/database.js';
import { AuthService } from './modules/auth/auth.service.js';
import type { FileStore } from './files/file-store.js';
import { LocalFileStore } from './files/local-file-store.js';
import { ORPHAN_MIN_AGE_MS, removeOrphanFiles } from './files/orphan-files.js';
import { SessionService } from './modules/auth/session.service.js';
import { StorageService } from './modules/storage/storage.service.js';
import { UserService } from './modules/users/users.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}

/** The app's services, built once and handed to each module's routes. */
export type Services = {
  config: Config;
  database: AppDatabase;
  sessions: SessionService;
  auth: AuthService;
  /** Where uploaded files live (local storage, avatars): folders under DATA_DIR. */
  files: FileStore;
};

export async function createServices(config: Config, database: AppDatabase): Promise<Services> {
  const sessions = await SessionService.create(database.db);
  const auth = new AuthService({ db: database.db, sessions, captchaEnabled: config.captchaEnabled });
  return { config, database, sessions, auth, files: new LocalFileStore(config.dataDir) };
}

/**
 * Run at start: removes the files that uploads killed mid-way left with no row (see
 * ORPHAN_MIN_AGE_MS for why only old ones). Answers how many went.
 */
export async function removeLeftoverFiles(services: Services, log: FastifyBaseLogger, now = Date.now()): Promise<number> {
  const { db } = services.database;
  const storage = new StorageService({ db, files: services.files, quotaBytes: services.config.uploadQuotaBytes, log });
  const users = new UserService({ db, sessions: services.sessions, files: services.files });
  return removeOrphanFiles(services.files, [storage.storedFiles, users.avatarFiles], now - ORPHAN_MIN_AGE_MS);
}
