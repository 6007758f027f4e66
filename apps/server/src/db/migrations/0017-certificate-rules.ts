import type { Kysely } from 'kysely';
import { createAuditedTable, notNull } from '../migration-helpers.js';

// Issuing rules (DESIGN §6: "rules issue automatically when an exam is passed or a term
// completed"; issue 14): a rule names a template and either an exam (issue when passed) or a term
// (issue when completed). A table of their own rather than a template id on the exam and the term:
// one shape serves both, as edu_assignment_rule does for enrolment, the exam and term modules stay
// unaware of certificates, and the certificate a rule issued names its rule, so the unique
// (rule, person) index makes each rule issue to a person exactly once, whatever runs twice.

export async function up(db: Kysely<unknown>): Promise<void> {
  await createAuditedTable(db, 'edu_cert_rule')
    .addColumn('template_id', 'integer', notNull)
    /** One of exam_id and term_id is set. */
    .addColumn('exam_id', 'integer')
    .addColumn('term_id', 'integer')
    .execute();
  await db.schema.createIndex('edu_cert_rule_exam').on('edu_cert_rule').column('exam_id').execute();
  await db.schema.createIndex('edu_cert_rule_term').on('edu_cert_rule').column('term_id').execute();

  // Null for certificates issued by hand, imported or re-issued (a unique index lets nulls repeat).
  await db.schema.alterTable('edu_certificate').addColumn('rule_id', 'integer').execute();
  await db.schema.createIndex('edu_certificate_rule_person').on('edu_certificate').columns(['rule_id', 'user_id']).unique().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('edu_certificate_rule_person').execute();
  await db.schema.alterTable('edu_certificate').dropColumn('rule_id').execute();
  await db.schema.dropTable('edu_cert_rule').execute();
}
