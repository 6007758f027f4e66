import type {
  Dict,
  DictBody,
  DictDetail,
  DictDetailBody,
  DictDetailMap,
  DictDetailQuery,
  DictDetailUpdateBody,
  DictQuery,
  DictUpdateBody,
} from '@cloud-classroom/shared/dicts';
import type { Page } from '@cloud-classroom/shared/http';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock.js';
import type { Database } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/constraint-violation.js';
import { conflict, invalidInput, notFound } from '../../domain-error.js';
import {
  deleteDictDetail,
  deleteDicts,
  dictDetailExists,
  existingDictIds,
  findDictDetails,
  findDictDetailsByNames,
  findDictDetailIdByValue,
  findDictDetailsOf,
  findDictIdByName,
  findDicts,
  insertDict,
  insertDictDetail,
  updateDict,
  updateDictDetail,
  type Stamp,
} from './dicts.repo.js';

export type DictWithDetails = Dict & { details: DictDetail[] };

/** Dictionaries (named lists of label/value pairs) and their entries. */
export class DictService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
  ) {}

  async page({ page, size, sort, blurry }: DictQuery): Promise<Page<Dict>> {
    return findDicts(this.db, { blurry }, { page, size, sort });
  }

  async all(): Promise<Dict[]> {
    return (await findDicts(this.db, {}, {})).content;
  }

  /** Every dictionary the list's filters match, each with its entries. */
  async export({ sort, blurry }: DictQuery): Promise<DictWithDetails[]> {
    const dicts = (await findDicts(this.db, { blurry }, { sort })).content;
    const details = await findDictDetailsOf(
      this.db,
      dicts.map((dict) => dict.id),
    );
    return dicts.map((dict) => ({ ...dict, details: details.filter((detail) => detail.dict.id === dict.id) }));
  }

  async create({ name, description }: DictBody, by: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await assertNameFree(trx, name);
      await insertDict(trx, { name, description: description ?? null }, stamp(by, this.clock.now()));
    });
  }

  async update({ id, name, description }: DictUpdateBody, by: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await assertDictsExist(trx, [id], 404);
      await assertNameFree(trx, name, id);
      await updateDict(trx, id, { name, description: description ?? null }, stamp(by, this.clock.now()));
    });
  }

  async delete(ids: readonly number[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await assertDictsExist(trx, ids, 404);
      await deleteDicts(trx, ids);
    });
  }

  async detailPage({ page, size, sort, dictName, label }: DictDetailQuery): Promise<Page<DictDetail>> {
    return findDictDetails(this.db, { dictName, label }, { page, size, sort });
  }

  async detailMap(names: readonly string[]): Promise<DictDetailMap> {
    return findDictDetailsByNames(this.db, names);
  }

  async createDetail({ label, labelEn, value, dictSort, dict }: DictDetailBody, by: string): Promise<void> {
    await valueConflictAs409(value, () =>
      this.db.transaction().execute(async (trx) => {
        await assertDictsExist(trx, [dict.id], 400);
        await assertValueFree(trx, dict.id, value);
        await insertDictDetail(trx, { dictId: dict.id, label, labelEn, value, dictSort }, stamp(by, this.clock.now()));
      }),
    );
  }

  async updateDetail({ id, label, labelEn, value, dictSort, dict }: DictDetailUpdateBody, by: string): Promise<void> {
    await valueConflictAs409(value, () =>
      this.db.transaction().execute(async (trx) => {
        if (!(await dictDetailExists(trx, id))) throw notFound(`id: no dictionary entry ${id}`);
        await assertDictsExist(trx, [dict.id], 400);
        await assertValueFree(trx, dict.id, value, id);
        await updateDictDetail(trx, id, { dictId: dict.id, label, labelEn, value, dictSort }, stamp(by, this.clock.now()));
      }),
    );
  }

  async deleteDetail(id: number): Promise<void> {
    if (!(await deleteDictDetail(this.db, id))) throw notFound(`id: no dictionary entry ${id}`);
  }
}

const stamp = (by: string, time: number): Stamp => ({ by, time });

async function assertNameFree(db: Kysely<Database>, name: string, exceptId?: number): Promise<void> {
  const holder = await findDictIdByName(db, name);
  if (holder !== undefined && holder !== exceptId) throw conflict(`name: a dictionary named '${name}' already exists`);
}

const valueTaken = (value: string) => conflict(`value: the dictionary already has an entry with the value '${value}'`);

/** A value names one entry of its dictionary: the stored data holds the value, the screens show its label. */
async function assertValueFree(db: Kysely<Database>, dictId: number, value: string, exceptId?: number): Promise<void> {
  const holder = await findDictDetailIdByValue(db, dictId, value);
  if (holder !== undefined && holder !== exceptId) throw valueTaken(value);
}

/** Two requests may both pass the check above; the unique index stops the second, which is the same conflict. */
async function valueConflictAs409(value: string, write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (error) {
    throw isUniqueViolation(error) ? valueTaken(value) : error;
  }
}

/**
 * 404 when the ids are what the request acts on; 400 (naming `dict.id`) when an entry refers
 * to a dictionary that is not there.
 */
async function assertDictsExist(db: Kysely<Database>, ids: readonly number[], status: 400 | 404): Promise<void> {
  const found = new Set(await existingDictIds(db, ids));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length === 0) return;
  throw status === 404 ? notFound(`id: no dictionary ${missing.join(', ')}`) : invalidInput(`dict.id: no dictionary ${missing.join(', ')}`);
}
