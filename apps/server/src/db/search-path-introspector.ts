import {
  DEFAULT_MIGRATION_LOCK_TABLE,
  DEFAULT_MIGRATION_TABLE,
  PostgresDialect,
  PostgresIntrospector,
  sql,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type DatabaseMetadataOptions,
  type Kysely,
  type SchemaMetadata,
  type TableMetadata,
} from 'kysely';

type ColumnRow = {
  column: string;
  not_null: boolean;
  has_default: boolean;
  table: string;
  table_type: string;
  schema: string;
  type: string;
  type_schema: string;
  column_description: string | null;
  auto_incrementing: string | null;
};

/**
 * Kysely's PostgreSQL introspector reads every table of every schema, and its Migrator asks it
 * whether its bookkeeping table exists. That answered "yes" for a schema that had none when
 * another schema had one, and, worse, it resolves each table's name again while it reads
 * (`pg_get_serial_sequence`), locking them: a table another connection drops or a schema it
 * creates meanwhile fails the read with 42P01 (undefined table), and a concurrent
 * `drop schema … cascade` deadlocks with it. This one reads only the schemas on the connection's
 * search_path, the ones its unqualified queries (the Migrator's among them) resolve to.
 */
export class SearchPathIntrospector implements DatabaseIntrospector {
  // The catalogue's tables, not the app's: typed as loosely as Kysely's own introspectors.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  readonly #db: Kysely<any>;
  readonly #schemas: PostgresIntrospector;

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  constructor(db: Kysely<any>) {
    this.#db = db;
    this.#schemas = new PostgresIntrospector(db);
  }

  getSchemas(): Promise<SchemaMetadata[]> {
    return this.#schemas.getSchemas();
  }

  async getTables(options: DatabaseMetadataOptions = { withInternalKyselyTables: false }): Promise<TableMetadata[]> {
    let query = this.#db
      .selectFrom('pg_catalog.pg_attribute as a')
      .innerJoin('pg_catalog.pg_class as c', 'a.attrelid', 'c.oid')
      .innerJoin('pg_catalog.pg_namespace as ns', 'c.relnamespace', 'ns.oid')
      .innerJoin('pg_catalog.pg_type as typ', 'a.atttypid', 'typ.oid')
      .innerJoin('pg_catalog.pg_namespace as dtns', 'typ.typnamespace', 'dtns.oid')
      .select([
        'a.attname as column',
        'a.attnotnull as not_null',
        'a.atthasdef as has_default',
        'c.relname as table',
        'c.relkind as table_type',
        'ns.nspname as schema',
        'typ.typname as type',
        'dtns.nspname as type_schema',
        sql<string | null>`col_description(a.attrelid, a.attnum)`.as('column_description'),
        sql<string | null>`pg_get_serial_sequence(quote_ident(ns.nspname) || '.' || quote_ident(c.relname), a.attname)`.as('auto_incrementing'),
      ])
      .where('c.relkind', 'in', ['r', 'v', 'p'])
      // Implicit pg_catalog and pg_temp are left out, as Kysely's introspector leaves them out.
      .where(sql<boolean>`ns.nspname = any(current_schemas(false))`)
      .where('a.attnum', '>=', 0)
      .where('a.attisdropped', '!=', true)
      .orderBy('ns.nspname')
      .orderBy('c.relname')
      .orderBy('a.attnum')
      .$castTo<ColumnRow>();
    if (!options.withInternalKyselyTables) {
      query = query.where('c.relname', '!=', DEFAULT_MIGRATION_TABLE).where('c.relname', '!=', DEFAULT_MIGRATION_LOCK_TABLE);
    }
    return tablesOf(await query.execute());
  }

  async getMetadata(options?: DatabaseMetadataOptions): Promise<DatabaseMetadata> {
    return { tables: await this.getTables(options) };
  }
}

/** PostgreSQL as Kysely speaks it, introspecting only the search_path's schemas. */
export class SearchPathPostgresDialect extends PostgresDialect {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new SearchPathIntrospector(db);
  }
}

function tablesOf(rows: ColumnRow[]): TableMetadata[] {
  const tables = new Map<string, TableMetadata>();
  for (const row of rows) {
    const key = `${row.schema}.${row.table}`;
    let table = tables.get(key);
    if (table === undefined) {
      table = { name: row.table, schema: row.schema, isView: row.table_type === 'v', columns: [] };
      tables.set(key, table);
    }
    table.columns.push({
      name: row.column,
      dataType: row.type,
      dataTypeSchema: row.type_schema,
      hasDefaultValue: row.has_default,
      isAutoIncrementing: row.auto_incrementing !== null,
      isNullable: !row.not_null,
      ...(row.column_description === null ? {} : { comment: row.column_description }),
    });
  }
  return [...tables.values()];
}
