import type { Kysely } from 'kysely';

type Tables = { sys_dict_detail: { id: number; dict_id: number; value: string; update_time: number } };

/** What a repeated value becomes: still recognisable, within the column's 100 characters, and free. */
function freeValue(value: string, id: number, taken: ReadonlySet<string>): string {
  for (let marks = 1; ; marks += 1) {
    const suffix = ` (duplicate ${'#'.repeat(marks)}${id})`;
    const candidate = value.slice(0, 100 - suffix.length) + suffix;
    if (!taken.has(candidate)) return candidate;
  }
}

/**
 * A value names one entry of its dictionary (the stored data holds the value, the screens show its
 * label), so a dictionary may not have it twice. Before this, repeats were accepted: the oldest
 * entry with a value keeps it, and each later one gets a value marked as a duplicate, so nothing is
 * lost and the administrator can see and fix it in the dictionary page.
 */
export async function up(database: Kysely<unknown>): Promise<void> {
  const db = database as unknown as Kysely<Tables>;
  const rows = await db.selectFrom('sys_dict_detail').select(['id', 'dict_id', 'value']).orderBy('dict_id').orderBy('id').execute();
  const valuesByDict = new Map<number, Set<string>>();
  for (const row of rows) {
    const values = valuesByDict.get(row.dict_id) ?? new Set<string>();
    valuesByDict.set(row.dict_id, values);
    values.add(row.value);
  }
  const seen = new Set<string>();
  for (const row of rows) {
    const key = JSON.stringify([row.dict_id, row.value]);
    if (!seen.has(key)) {
      seen.add(key);
      continue;
    }
    const values = valuesByDict.get(row.dict_id) ?? new Set<string>();
    const value = freeValue(row.value, row.id, values);
    values.add(value);
    await db.updateTable('sys_dict_detail').set({ value, update_time: Date.now() }).where('id', '=', row.id).execute();
  }
  await database.schema
    .createIndex('sys_dict_detail_dict_value')
    .on('sys_dict_detail')
    .columns(['dict_id', 'value'])
    .unique()
    .execute();
}

export async function down(database: Kysely<unknown>): Promise<void> {
  await database.schema.dropIndex('sys_dict_detail_dict_value').execute();
}
