import { MAX_PAGE_SIZE, type SortOrder } from '@cloud-classroom/shared/http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../domain-error.js';
import { openBlankTestDatabase, testConfig, type TestDatabase } from '../test/test-app.js';
import { contains } from './list-filters.js';
import { migrateToLatest } from './migrate.js';
import { paginate, type Ordering } from './paginate.js';

// A real table on the real dialect (SQLite, or PostgreSQL with TEST_DATABASE_URL), so the SQL is the one the lists run.
type Row = { id: number; name: string; description: string | null; time: number };
const ROWS: Omit<Row, 'id'>[] = [
  { name: 'delta', description: 'b', time: 3000 },
  { name: 'alpha', description: null, time: 1000 },
  { name: 'echo', description: 'a', time: 2000 },
  { name: 'charlie', description: 'b', time: 1000 },
  { name: 'bravo', description: null, time: 3000 },
  { name: 'golf', description: 'c', time: 2000 },
  { name: 'foxtrot', description: 'a', time: 1000 },
];

type Field = 'id' | 'name' | 'description' | 'createTime';
const ORDERING: Ordering<Field> = {
  sortable: { id: 'id', name: 'name', description: 'description', createTime: 'create_time' },
  nullable: ['description'],
  byDefault: [['id', 'desc']],
  tiebreak: [['id', 'asc']],
};

let database: TestDatabase;
let rows: Row[];

beforeAll(async () => {
  database = await openBlankTestDatabase(testConfig());
  await migrateToLatest(database);
  const { db } = database;
  await db.deleteFrom('sys_dict').execute();
  for (const row of ROWS) {
    await db
      .insertInto('sys_dict')
      .values({ name: row.name, description: row.description, create_by: 'test', update_by: 'test', create_time: row.time, update_time: row.time })
      .execute();
  }
  rows = (await db.selectFrom('sys_dict').select(['id', 'name', 'description', 'create_time']).orderBy('id').execute()).map((row) => ({
    id: row.id,
    name: row.name,
    description: row.description,
    time: Number(row.create_time),
  }));
});

afterAll(async () => {
  await database.db.destroy();
  await database.dispose();
});

const dicts = () => database.db.selectFrom('sys_dict');
const ids = (request: Parameters<typeof paginate>[3]) =>
  paginate(dicts(), (query) => query.select('id'), ORDERING, request).then((page) => ({
    ids: page.content.map((row) => row.id),
    total: page.totalElements,
  }));

/** The order the database should give: nulls smallest, the id breaking ties. */
function expected(field: Field, direction: 'asc' | 'desc'): number[] {
  const value = (row: Row) => ({ id: row.id, name: row.name, description: row.description, createTime: row.time })[field];
  const sign = direction === 'asc' ? 1 : -1;
  return [...rows]
    .sort((a, b) => {
      const [x, y] = [value(a), value(b)];
      if (x !== y) {
        if (x === null) return -sign;
        if (y === null) return sign;
        return (x < y ? -1 : 1) * sign;
      }
      return a.id - b.id;
    })
    .map((row) => row.id);
}

async function refusal(request: Parameters<typeof paginate>[3]): Promise<DomainError> {
  const error = await ids(request).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe('paginate', () => {
  it('answers the default order with every row when no page is asked', async () => {
    const byIdDesc = rows.map((row) => row.id).sort((a, b) => b - a);
    expect(await ids({})).toEqual({ ids: byIdDesc, total: rows.length });
  });

  it.each([
    { page: 0, size: 3, from: 0, to: 3 },
    { page: 1, size: 3, from: 3, to: 6 },
    { page: 2, size: 3, from: 6, to: 7 },
    { page: 3, size: 3, from: 7, to: 7 },
    { page: 1000, size: 3, from: 7, to: 7 },
    { page: 0, size: 1, from: 0, to: 1 },
    { page: 6, size: 1, from: 6, to: 7 },
    { page: 0, size: MAX_PAGE_SIZE, from: 0, to: 7 },
  ])('page $page of size $size holds rows $from to $to and still counts them all', async ({ page, size, from, to }) => {
    const all = expected('name', 'asc');
    expect(await ids({ page, size, sort: [{ field: 'name', direction: 'asc' }] })).toEqual({ ids: all.slice(from, to), total: rows.length });
  });

  it.each([
    { request: { page: 0, size: 0 }, field: 'size' },
    { request: { page: 0, size: MAX_PAGE_SIZE + 1 }, field: 'size' },
    { request: { page: 0, size: -5 }, field: 'size' },
    { request: { page: 0, size: 2.5 }, field: 'size' },
    { request: { page: -1, size: 10 }, field: 'page' },
    { request: { page: 0.5, size: 10 }, field: 'page' },
  ])('refuses $request as invalid input naming $field', async ({ request, field }) => {
    const error = await refusal(request);
    expect(error.kind).toBe('invalid');
    expect(error.message.startsWith(`${field}: `)).toBe(true);
  });

  const FIELDS = Object.keys(ORDERING.sortable) as Field[];
  it.each(FIELDS.flatMap((field) => (['asc', 'desc'] as const).map((direction) => ({ field, direction }))))(
    'sorts by $field $direction, nulls smallest, ties by id',
    async ({ field, direction }) => {
      expect((await ids({ sort: [{ field, direction }] })).ids).toEqual(expected(field, direction));
    },
  );

  it('sorts by several fields in the order asked', async () => {
    const sort: SortOrder[] = [
      { field: 'createTime', direction: 'desc' },
      { field: 'name', direction: 'asc' },
    ];
    const want = [...rows].sort((a, b) => b.time - a.time || a.name.localeCompare(b.name)).map((row) => row.id);
    expect((await ids({ sort })).ids).toEqual(want);
  });

  it('shows every row exactly once across the pages, even when the sorted field ties', async () => {
    const seen: number[] = [];
    for (let page = 0; page < 4; page += 1) {
      seen.push(...(await ids({ page, size: 2, sort: [{ field: 'createTime', direction: 'asc' }] })).ids);
    }
    expect(seen).toEqual(expected('createTime', 'asc'));
  });

  it.each(['password_hash', 'create_time', 'id; drop table sys_dict', 'toString', '__proto__'])(
    'refuses to sort by %s, naming sort and the fields it may use',
    async (field) => {
      const error = await refusal({ page: 0, size: 10, sort: [{ field, direction: 'asc' }] });
      expect(error.kind).toBe('invalid');
      expect(error.message).toBe(`sort: cannot sort by ${field}; use one of id, name, description, createTime`);
    },
  );

  it('refuses a direction other than asc or desc', async () => {
    const error = await refusal({ sort: [{ field: 'name', direction: 'sideways' as 'asc' }] });
    expect(error.message).toBe('sort: expected name,asc or name,desc');
  });

  it('counts the rows the filters match, not the rows of the page', async () => {
    const filtered = dicts().where(contains(['name'], 'O'));
    const page = await paginate(filtered, (query) => query.select(['id', 'name']), ORDERING, {
      page: 0,
      size: 2,
      sort: [{ field: 'name', direction: 'desc' }],
    });
    const matching = rows.filter((row) => row.name.includes('o'));
    expect(page.totalElements).toBe(matching.length);
    expect(page.content.map((row) => row.name)).toEqual(
      matching
        .map((row) => row.name)
        .sort()
        .reverse()
        .slice(0, 2),
    );
  });

  it('counts nothing and answers an empty page when nothing matches', async () => {
    const page = await paginate(dicts().where('name', '=', 'zulu'), (query) => query.select('id'), ORDERING, { page: 0, size: 10 });
    expect(page).toEqual({ content: [], totalElements: 0 });
  });
});
