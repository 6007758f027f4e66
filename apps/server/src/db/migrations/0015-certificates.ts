import type { Kysely } from 'kysely';
import { addMenus, createAuditedTable, createTableWithId, crudButtons, grantMenusToRole, notNull, type MenuSpec } from '../migration-helpers.js';
import { COURSE_ROLES } from './0010-courses.js';

// Certificates (DESIGN §6, §10; issue 14): templates with their layout versions (a certificate
// keeps the version it was issued with, so editing a template never changes one already issued),
// certificates holding a snapshot of every printed value, and the number sequences the templates'
// patterns count in. Plus the `cert:*` permissions for the roles that have the course menus.

/**
 * The certificate permissions, as buttons of a directory kept hidden until the certificate pages
 * ship: permissions reach roles through menus, and no menu may lead to a page that does not exist
 * yet. The migration that adds the pages puts them in this directory (found by its path) and shows it.
 */
export const CERTIFICATE_MENUS: MenuSpec[] = [
  {
    title: '证书管理',
    titleEn: 'Certificates',
    type: 0,
    path: 'cert',
    icon: 'education',
    sort: 0,
    hidden: true,
    children: [
      { title: '证书查看', titleEn: 'View certificates', type: 2, permission: 'cert:list' },
      ...crudButtons('cert', '证书模板', 'certificate template'),
      { title: '证书颁发', titleEn: 'Issue certificates', type: 2, permission: 'cert:issue' },
      { title: '证书撤销', titleEn: 'Revoke certificates', type: 2, permission: 'cert:revoke' },
    ],
  },
];

export async function referenceData(db: Kysely<unknown>): Promise<void> {
  const menus = await addMenus(db, CERTIFICATE_MENUS, Date.now());
  for (const role of COURSE_ROLES) await grantMenusToRole(db, role, menus.inserted);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await createAuditedTable(db, 'edu_cert_template')
    .addColumn('name', 'varchar(100)', notNull)
    .addColumn('number_pattern', 'varchar(40)', notNull)
    /** Null: its certificates never expire. */
    .addColumn('validity_months', 'integer')
    /** The version new certificates are issued with. */
    .addColumn('current_version_id', 'integer')
    .execute();

  // Created when a template is, and again when a layout that certificates use is edited; a
  // version no certificate uses yet is edited in place.
  await createTableWithId(db, 'edu_cert_template_version')
    .addColumn('template_id', 'integer', notNull)
    .addColumn('version', 'integer', notNull)
    /** JSON CertificateLayout. */
    .addColumn('layout', 'text', notNull)
    .addColumn('create_by', 'varchar(64)')
    .addColumn('create_time', 'bigint', notNull)
    .execute();
  await db.schema.createIndex('edu_cert_template_version_pair').on('edu_cert_template_version').columns(['template_id', 'version']).unique().execute();

  await createTableWithId(db, 'edu_certificate')
    .addColumn('template_id', 'integer', notNull)
    .addColumn('template_version_id', 'integer', notNull)
    .addColumn('user_id', 'integer', notNull)
    .addColumn('number', 'varchar(64)', (col) => col.notNull().unique())
    /** Random; the public check needs it with the number, so numbers alone cannot be enumerated. */
    .addColumn('code', 'varchar(32)', notNull)
    /** JSON CertificateSnapshot: every printed value. */
    .addColumn('snapshot', 'text', notNull)
    /** Columns of the snapshot's values that lists filter and sort by. */
    .addColumn('holder_name', 'varchar(100)', notNull)
    .addColumn('title', 'varchar(200)', notNull)
    /** 'staff' | 'exam' | 'term' | 'import' | 'reissue'. */
    .addColumn('source', 'varchar(8)', notNull)
    .addColumn('exam_id', 'integer')
    .addColumn('term_id', 'integer')
    .addColumn('issued_at', 'bigint', notNull)
    .addColumn('expires_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .addColumn('revoked_by', 'varchar(64)')
    .addColumn('revoke_reason', 'varchar(500)')
    .addColumn('superseded_by', 'integer')
    .addColumn('superseded_at', 'bigint')
    .addColumn('supersedes', 'integer')
    .addColumn('create_by', 'varchar(64)')
    .addColumn('create_time', 'bigint', notNull)
    .execute();
  await db.schema.createIndex('edu_certificate_user').on('edu_certificate').column('user_id').execute();
  await db.schema.createIndex('edu_certificate_template').on('edu_certificate').columns(['template_id', 'template_version_id']).execute();
  await db.schema.createIndex('edu_certificate_exam').on('edu_certificate').column('exam_id').execute();
  await db.schema.createIndex('edu_certificate_term').on('edu_certificate').column('term_id').execute();

  // The last sequence number given per scope: a number pattern with its date placeholders filled
  // in (`CC-2026-{seq}`), so `CC-{yyyy}-{seq:6}` counts from 1 again each year. Taken by one
  // upsert that adds 1 (see nextSequence): a row lock on PostgreSQL, the one writer on SQLite.
  await db.schema
    .createTable('edu_cert_sequence')
    .addColumn('scope', 'varchar(100)', (col) => col.primaryKey())
    .addColumn('value', 'bigint', notNull)
    .execute();

  await referenceData(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['edu_cert_sequence', 'edu_certificate', 'edu_cert_template_version', 'edu_cert_template']) {
    await db.schema.dropTable(table).execute();
  }
}
