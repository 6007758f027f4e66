import { formatDateTime } from '@cloud-classroom/shared/display';
import type { DICT_DETAIL_SORT_FIELDS, DICT_SORT_FIELDS, Dict, DictDetail } from '@cloud-classroom/shared/dicts';
import { mapPage, type Page } from '@cloud-classroom/shared/http';
import type { Kysely, Selectable } from 'kysely';
import { contains } from '../../db/list-filters.js';
import { paginate, type ListRequest, type Ordering } from '../../db/paginate.js';
import type { Database, DictDetailTable, DictTable } from '../../db/schema.js';
import { changed, created } from '../../db/audit-columns.js';

export type Stamp = { by: string; time: number };

type DictSortField = (typeof DICT_SORT_FIELDS)[number];
type DetailSortField = (typeof DICT_DETAIL_SORT_FIELDS)[number];

/** Newest first unless asked otherwise. */
const DICT_ORDERING: Ordering<DictSortField> = {
  sortable: {
    id: 'id',
    name: 'name',
    description: 'description',
    createTime: 'create_time',
    updateTime: 'update_time',
  } satisfies Record<DictSortField, keyof DictTable>,
  nullable: ['description'],
  byDefault: [['id', 'desc']],
  tiebreak: [['id', 'asc']],
};

/** By dictSort unless asked otherwise. */
const DETAIL_ORDERING: Ordering<DetailSortField> = {
  sortable: {
    id: 'id',
    label: 'label',
    value: 'value',
    dictSort: 'dict_sort',
    createTime: 'create_time',
    updateTime: 'update_time',
  } satisfies Record<DetailSortField, keyof DictDetailTable>,
  byDefault: [['dict_sort', 'asc']],
  tiebreak: [['id', 'asc']],
};

const auditDto = (row: Selectable<DictTable> | Selectable<DictDetailTable>) => ({
  createBy: row.create_by,
  updateBy: row.update_by,
  createTime: formatDateTime(row.create_time),
  updateTime: formatDateTime(row.update_time),
});

const toDict = (row: Selectable<DictTable>): Dict => ({
  id: row.id,
  name: row.name,
  description: row.description,
  ...auditDto(row),
});

const toDetail = (row: Selectable<DictDetailTable>): DictDetail => ({
  id: row.id,
  label: row.label,
  labelEn: row.label_en,
  value: row.value,
  dictSort: row.dict_sort,
  dict: { id: row.dict_id },
  ...auditDto(row),
});

export type DictFilter = { blurry?: string | undefined };

function dictsMatching(db: Kysely<Database>, { blurry }: DictFilter) {
  let query = db.selectFrom('sys_dict');
  if (blurry) query = query.where(contains(['name', 'description'], blurry));
  return query;
}

/** Dictionaries matching the filter in the asked order; one page of them when paged, else all. */
export async function findDicts(db: Kysely<Database>, filter: DictFilter, request: ListRequest): Promise<Page<Dict>> {
  return mapPage(await paginate(dictsMatching(db, filter), (query) => query.selectAll(), DICT_ORDERING, request), toDict);
}

export async function findDictIdByName(db: Kysely<Database>, name: string): Promise<number | undefined> {
  return (await db.selectFrom('sys_dict').select('id').where('name', '=', name).executeTakeFirst())?.id;
}

/** Which of these ids name an existing dictionary. */
export async function existingDictIds(db: Kysely<Database>, ids: readonly number[]): Promise<number[]> {
  const rows = await db.selectFrom('sys_dict').select('id').where('id', 'in', ids).execute();
  return rows.map((row) => row.id);
}

export async function insertDict(db: Kysely<Database>, dict: { name: string; description: string | null }, stamp: Stamp): Promise<void> {
  await db
    .insertInto('sys_dict')
    .values({ ...dict, ...created(stamp.by, stamp.time) })
    .execute();
}

export async function updateDict(
  db: Kysely<Database>,
  id: number,
  dict: { name: string; description: string | null },
  stamp: Stamp,
): Promise<void> {
  await db.updateTable('sys_dict').set({ ...dict, ...changed(stamp.by, stamp.time) }).where('id', '=', id).execute();
}

/** Their details go with them (the foreign key cascades). */
export async function deleteDicts(db: Kysely<Database>, ids: readonly number[]): Promise<void> {
  await db.deleteFrom('sys_dict').where('id', 'in', ids).execute();
}

export type DictDetailFilter = { dictName: string; label?: string | undefined };

function detailsMatching(db: Kysely<Database>, { dictName, label }: DictDetailFilter) {
  let query = db
    .selectFrom('sys_dict_detail')
    .where('dict_id', 'in', (eb) => eb.selectFrom('sys_dict').select('id').where('name', '=', dictName));
  if (label) query = query.where(contains(['label', 'label_en'], label));
  return query;
}

/** One page of a dictionary's entries in the asked order. */
export async function findDictDetails(db: Kysely<Database>, filter: DictDetailFilter, request: ListRequest): Promise<Page<DictDetail>> {
  return mapPage(await paginate(detailsMatching(db, filter), (query) => query.selectAll(), DETAIL_ORDERING, request), toDetail);
}

/** The entries of each named dictionary, by dictSort; a name without a dictionary gets an empty list. */
export async function findDictDetailsByNames(db: Kysely<Database>, names: readonly string[]): Promise<Record<string, DictDetail[]>> {
  const rows = await db
    .selectFrom('sys_dict_detail as dd')
    .innerJoin('sys_dict as d', 'd.id', 'dd.dict_id')
    .selectAll('dd')
    .select('d.name as dict_name')
    .where('d.name', 'in', names)
    .orderBy('dd.dict_sort')
    .orderBy('dd.id')
    .execute();
  const byName: Record<string, DictDetail[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (const row of rows) byName[row.dict_name]?.push(toDetail(row));
  return byName;
}

/** The entries of these dictionaries, by dictSort, for the export. */
export async function findDictDetailsOf(db: Kysely<Database>, dictIds: readonly number[]): Promise<DictDetail[]> {
  if (dictIds.length === 0) return [];
  const rows = await db
    .selectFrom('sys_dict_detail')
    .selectAll()
    .where('dict_id', 'in', dictIds)
    .orderBy('dict_sort')
    .orderBy('id')
    .execute();
  return rows.map(toDetail);
}

export async function dictDetailExists(db: Kysely<Database>, id: number): Promise<boolean> {
  return (await db.selectFrom('sys_dict_detail').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

/** The entry of this dictionary holding this value, if any. */
export async function findDictDetailIdByValue(db: Kysely<Database>, dictId: number, value: string): Promise<number | undefined> {
  const row = await db.selectFrom('sys_dict_detail').select('id').where('dict_id', '=', dictId).where('value', '=', value).executeTakeFirst();
  return row?.id;
}

type DetailValues = { dictId: number; label: string; labelEn: string | null; value: string; dictSort: number };

const detailColumns = ({ dictId, label, labelEn, value, dictSort }: DetailValues) => ({
  dict_id: dictId,
  label,
  label_en: labelEn,
  value,
  dict_sort: dictSort,
});

export async function insertDictDetail(db: Kysely<Database>, detail: DetailValues, stamp: Stamp): Promise<void> {
  await db
    .insertInto('sys_dict_detail')
    .values({ ...detailColumns(detail), ...created(stamp.by, stamp.time) })
    .execute();
}

export async function updateDictDetail(db: Kysely<Database>, id: number, detail: DetailValues, stamp: Stamp): Promise<void> {
  await db
    .updateTable('sys_dict_detail')
    .set({ ...detailColumns(detail), ...changed(stamp.by, stamp.time) })
    .where('id', '=', id)
    .execute();
}

/** Whether there was such an entry. */
export async function deleteDictDetail(db: Kysely<Database>, id: number): Promise<boolean> {
  const result = await db.deleteFrom('sys_dict_detail').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}
