import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import { isPostgres } from './dialect.js';
import type { Database } from './schema.js';
import { runOnSqliteNow } from './sqlite-connection.js';

/**
 * A query run on every request of a hot route (the session check, the progress report every
 * player sends every few seconds): built and compiled once per dialect (building and compiling
 * through Kysely costs more than running a small prepared statement), then run with each
 * request's values. Only for a query whose shape never changes (no IN list of varying length, no
 * optional filters). The builder gets stand-ins for the values (`slots`), found again among the
 * compiled parameters and replaced; every other parameter (a constant) stays. On SQLite it runs
 * straight on the connection when it may (`runOnSqliteNow`): a report's transaction is a handful
 * of these, and Kysely's driver path cost more than the statements themselves.
 */
export class ReusableQuery<R> {
  private readonly compiled = new Map<boolean, { query: CompiledQuery<R>; slots: number[] }>();

  constructor(
    private readonly arity: number,
    private readonly build: (db: Kysely<Database>, slots: Slots) => Compilable<R>,
  ) {}

  async run(db: Kysely<Database>, values: readonly unknown[]): Promise<R[]> {
    const query = this.bind(db, values);
    return runOnSqliteNow<R, Database>(db, query.sql, query.parameters) ?? (await db.executeQuery<R>(query)).rows;
  }

  /** The statement with these values, for a caller that runs it itself (inside `sqliteTransactionNow`). */
  bind(db: Kysely<Database>, values: readonly unknown[]): CompiledQuery<R> {
    const postgres = isPostgres(db);
    let entry = this.compiled.get(postgres);
    if (entry === undefined) {
      const standIns = Array.from({ length: this.arity }, (_, index) => STAND_IN - index);
      const query = this.build(db, standIns as unknown as Slots).compile();
      const slots = query.parameters.map((parameter) => standIns.indexOf(parameter as number));
      if (standIns.some((standIn) => !query.parameters.includes(standIn))) throw new Error('a reusable query does not use all its values');
      entry = { query, slots };
      this.compiled.set(postgres, entry);
    }
    const { query, slots } = entry;
    const parameters = query.parameters.map((parameter, index) => ((slots[index] ?? -1) < 0 ? parameter : values[slots[index] as number]));
    return { ...query, parameters };
  }
}

/** What a builder gets for the values: each stands for a value of any column's type. */
export type Slots = readonly [never, never, never, never, never, never, never, never];

/** No real value is this: an id, a time, a count or a JSON text never is. */
const STAND_IN = -2_000_000_000;
