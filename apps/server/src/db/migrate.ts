import { Migrator, type Kysely, type Migration, type MigrationResultSet } from 'kysely';
import type { AppDatabase } from './database.js';
import type { AnyDatabase } from './migration-helpers.js';
import * as appSetting from './migrations/0001-app-setting.js';
import * as identity from './migrations/0002-identity.js';
import * as storagePathIndex from './migrations/0003-storage-path-index.js';
import * as dictDetailValueUnique from './migrations/0004-dict-detail-value-unique.js';
import * as englishNames from './migrations/0005-english-names.js';
import * as jobs from './migrations/0006-jobs.js';
import * as systemData from './migrations/0009-system-data.js';
import * as courses from './migrations/0010-courses.js';
import * as enrolment from './migrations/0011-enrolment.js';
import * as exams from './migrations/0012-exams.js';
import * as attempts from './migrations/0013-attempts.js';
import * as attemptPaperLast from './migrations/0014-attempt-paper-last.js';
import * as certificates from './migrations/0015-certificates.js';
import * as certificatePages from './migrations/0016-certificate-pages.js';
import * as certificateRules from './migrations/0017-certificate-rules.js';
import * as certificateRulePage from './migrations/0018-certificate-rule-page.js';
import * as census from './migrations/0019-census.js';
import * as notifications from './migrations/0020-notifications.js';
import * as installationMedia from './migrations/0021-installation-media.js';
import * as databaseBackups from './migrations/0022-database-backups.js';
import * as cloudStorage from './migrations/0023-cloud-storage.js';
import * as databaseMonitor from './migrations/0024-database-monitor.js';
import * as playbackCredit from './migrations/0025-playback-credit.js';
import * as idempotency from './migrations/0026-idempotency.js';
import * as roleDescriptionEn from './migrations/0027-role-description-en.js';
import * as captchaAddress from './migrations/0028-captcha-address.js';

/**
 * A migration that ships reference data (menus, roles' grants, dictionaries: see
 * migration-helpers.ts) exports the function inserting what of it an install lacks as
 * `referenceData`, which its `up` calls, so that `npm run seed -- --reset` can apply it again.
 */
type ReferenceDataMigration = Migration & { referenceData?: (db: Kysely<unknown>) => Promise<void> };

// Listed here rather than read from a folder, so the compiled server and the tests see the
// same set without touching the file system. Names sort in the order they must run.
const migrations = {
  '0001-app-setting': appSetting,
  '0002-identity': identity,
  '0003-storage-path-index': storagePathIndex,
  '0004-dict-detail-value-unique': dictDetailValueUnique,
  '0005-english-names': englishNames,
  '0006-jobs': jobs,
  '0009-system-data': systemData,
  '0010-courses': courses,
  '0011-enrolment': enrolment,
  '0012-exams': exams,
  '0013-attempts': attempts,
  '0014-attempt-paper-last': attemptPaperLast,
  '0015-certificates': certificates,
  '0016-certificate-pages': certificatePages,
  '0017-certificate-rules': certificateRules,
  '0018-certificate-rule-page': certificateRulePage,
  '0019-census': census,
  '0020-notifications': notifications,
  '0021-installation-media': installationMedia,
  '0022-database-backups': databaseBackups,
  '0023-cloud-storage': cloudStorage,
  '0024-database-monitor': databaseMonitor,
  '0025-playback-credit': playbackCredit,
  '0026-idempotency': idempotency,
  '0027-role-description-en': roleDescriptionEn,
  '0028-captcha-address': captchaAddress,
} satisfies Record<string, ReferenceDataMigration>;

export type MigrationName = keyof typeof migrations;

/** Every migration this version knows, oldest first (a backup holding another is from a newer version). */
export const MIGRATION_NAMES = Object.keys(migrations) as MigrationName[];

function migratorOf({ db, schema }: AppDatabase): Migrator {
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    // Without it Kysely looks for its bookkeeping table in every schema and can find another's.
    ...(schema === undefined ? {} : { migrationTableSchema: schema }),
  });
}

export async function migrateToLatest(database: AppDatabase): Promise<string[]> {
  return outcome(await migratorOf(database).migrateToLatest());
}

/** Brings a database to an earlier version, as an install of that version left it (tests of upgrades). */
export async function migrateUpTo(database: AppDatabase, target: MigrationName): Promise<string[]> {
  return outcome(await migratorOf(database).migrateTo(target));
}

/**
 * Applies the reference data of every migration again, in their order, inserting what is
 * missing (menus an operator deleted come back; renamed ones keep their names). For rebuilding
 * an install's demo organisation, not for starts: on a start a migration runs once.
 */
export async function reapplyReferenceData(db: AnyDatabase): Promise<void> {
  for (const migration of Object.values(migrations) as ReferenceDataMigration[]) {
    await migration.referenceData?.(db as unknown as Kysely<unknown>);
  }
}

function outcome({ error, results = [] }: MigrationResultSet): string[] {
  if (error !== undefined) {
    const failed = results.find((result) => result.status === 'Error');
    throw new Error(`Migration ${failed?.migrationName ?? '(unknown)'} failed`, { cause: error });
  }
  return results.map((result) => result.migrationName);
}
