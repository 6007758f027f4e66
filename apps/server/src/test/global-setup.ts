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

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  const databaseUrl = process.env.TEST_DATABASE_URL;
  if (databaseUrl === undefined || databaseUrl === '') return undefined;
  await dropTestSchemas(databaseUrl);
  return () => dropTestSchemas(databaseUrl);
}
