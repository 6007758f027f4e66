import type { TimeRange } from '@cloud-classroom/shared/http';
import { sql, type Expression, type SelectQueryBuilder, type SqlBool } from 'kysely';

/**
 * Whether any of the columns contains the text: case-insensitive on both dialects (SQLite's LIKE
 * ignores ASCII case, PostgreSQL's does not), with the user's % and _ taken literally.
 */
export function contains(columns: readonly string[], text: string): Expression<SqlBool> {
  const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
  const matches = columns.map((column) => sql`lower(${sql.ref(column)}) like ${pattern} escape '\\'`);
  return sql<SqlBool>`(${sql.join(matches, sql` or `)})`;
}

/** Whether the time column lies within the range, both ends included. */
export function within(column: string, { from, to }: TimeRange): Expression<SqlBool> {
  return sql<SqlBool>`${sql.ref(column)} between ${from} and ${to}`;
}

/** How many rows the query matches; PostgreSQL answers a count as text, hence the Number. */
export async function countRows<DB, TB extends keyof DB>(query: SelectQueryBuilder<DB, TB, object>): Promise<number> {
  const { count } = await query
    .select((eb) => eb.fn.countAll().as('count'))
    .$castTo<{ count: number | string | bigint }>()
    .executeTakeFirstOrThrow();
  return Number(count);
}
