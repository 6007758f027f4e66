import pg from 'pg';

// Each test database on PostgreSQL is a schema of its own. Dropping one while other test files
// run their migrations deadlocks now and then (both take catalog locks), so the schemas are all
// dropped here, once, after every file has finished, and before, for leftovers of a killed run.
async function dropTestSchemas(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      "select nspname as name from pg_namespace where nspname like 'test\\_%'",
    );
    for (const { name } of rows) await client.query(`drop schema if exists "${name}" cascade`);
  } finally {
    await client.end();
  }
}

/**
 * Every test builds its schema (some forty tables) and seeds it, a few dozen commits, each of
 * which waits for its WAL flush by default. The test database is thrown away at the end and no
 * test is about surviving a PostgreSQL crash, so its sessions commit without waiting.
 */
async function commitWithoutWaiting(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>('select current_database() as name');
    await client.query(`alter database "${rows[0]?.name ?? ''}" set synchronous_commit = off`);
  } finally {
    await client.end();
  }
}

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  const databaseUrl = process.env.TEST_DATABASE_URL;
  if (databaseUrl === undefined || databaseUrl === '') return undefined;
  await dropTestSchemas(databaseUrl);
  await commitWithoutWaiting(databaseUrl);
  return () => dropTestSchemas(databaseUrl);
}
