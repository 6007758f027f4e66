import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

/** The tables that are trees: each row names its parent in `pid` and keeps its number of children in `sub_count`. */
export type TreeTable = 'sys_dept' | 'sys_menu' | 'edu_category';

/**
 * Sets each row's `sub_count` from the rows that really sit below it, in one statement, so that
 * it stays right inside the transaction that moved, added or deleted them.
 */
export async function recountSubCounts(db: Kysely<Database>, table: TreeTable, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await sql`update ${sql.table(table)} set sub_count = (select count(*) from ${sql.table(table)} as child where child.pid = ${sql.ref(`${table}.id`)}) where id in (${sql.join([...ids])})`.execute(db);
}
