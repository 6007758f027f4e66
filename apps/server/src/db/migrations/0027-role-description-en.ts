import { sql, type Kysely } from 'kysely';

// Role descriptions in two languages, as menus and dictionary labels have: `description` the
// Chinese one, `description_en` the English one (none: the Chinese one shows in English too).
// The roles the product and its demo seeded were described in English alone, which the Chinese
// back office showed as they were: those descriptions, unchanged by their operators, get both.

/** The seeded descriptions as they were written (English), and their Chinese. */
const SEEDED: readonly (readonly [english: string, chinese: string])[] = [
  ['Administrators: everything', '管理员：全部权限'],
  ['Teachers: content, exams, marking and certificates of the training department and R&D', '讲师：培训部与研发部的课程、考试、阅卷和证书'],
  // The demo teacher as first starts before issue 13 described it.
  ['Teachers: content, exams, marking and certificates of the training department', '讲师：培训部的课程、考试、阅卷和证书'],
  ['Learners: no back office', '学员：不进入后台'],
];

/** Also after a reset, whose reference data (0009) describes the administrators' role as it was. */
export async function referenceData(db: Kysely<unknown>): Promise<void> {
  for (const [english, chinese] of SEEDED) {
    await sql`update sys_role set description = ${chinese}, description_en = ${english} where description = ${english}`.execute(db);
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sys_role').addColumn('description_en', 'varchar(255)').execute();
  await referenceData(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const [english, chinese] of SEEDED) {
    await sql`update sys_role set description = ${english} where description = ${chinese} and description_en = ${english}`.execute(db);
  }
  await db.schema.alterTable('sys_role').dropColumn('description_en').execute();
}
