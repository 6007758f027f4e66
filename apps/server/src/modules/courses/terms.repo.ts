import { ENROLLED_STATUSES } from '@cloud-classroom/shared/applicants';
import type { EnrolMode, Term, TERM_SORT_FIELDS, TermCreate } from '@cloud-classroom/shared/courses';
import { formatDateTime } from '@cloud-classroom/shared/display';
import type { Page, SortOrder } from '@cloud-classroom/shared/http';
import type { Kysely } from 'kysely';
import { changed, created } from '../../db/audit-columns.js';
import { contains } from '../../db/list-filters.js';
import { paginate, type Ordering } from '../../db/paginate.js';
import type { Database } from '../../db/schema.js';
import { REJECTED_STATUS } from './courses.repo.js';

export type TermFilter = { courseId?: number; q?: string | undefined; ids?: readonly number[] };

type TermSortField = (typeof TERM_SORT_FIELDS)[number];

/** The latest start first unless asked otherwise. */
const ORDERING: Ordering<TermSortField> = {
  sortable: { id: 't.id', name: 't.name', startAt: 't.start_at', endAt: 't.end_at', createTime: 't.create_time' },
  byDefault: [['t.start_at', 'desc']],
  tiebreak: [['t.id', 'desc']],
};

function filtered(db: Kysely<Database>, filter: TermFilter) {
  let query = db.selectFrom('edu_term as t');
  if (filter.courseId !== undefined) query = query.where('t.course_id', '=', filter.courseId);
  if (filter.q) query = query.where(contains(['t.name'], filter.q));
  if (filter.ids) query = query.where('t.id', 'in', filter.ids.length > 0 ? filter.ids : [-1]);
  return query;
}

/** The matching terms, each with how many people hold a place in it, counted in the same statement. */
export async function findTerms(db: Kysely<Database>, filter: TermFilter, page: { page?: number; size?: number; sort?: readonly SortOrder[] } = {}): Promise<Page<Term>> {
  const { content, totalElements } = await paginate(
    filtered(db, filter),
    (query) =>
      query
        .selectAll('t')
        .select((eb) =>
          eb
            .selectFrom('edu_applicant as a')
            .select((count) => count.fn.countAll().as('n'))
            .whereRef('a.term_id', '=', 't.id')
            .where('a.status', 'in', ENROLLED_STATUSES)
            .as('enrolled'),
        ),
    ORDERING,
    page,
  );
  return {
    totalElements,
    content: content.map((row) => ({
      id: row.id,
      courseId: row.course_id,
      name: row.name,
      startAt: formatDateTime(row.start_at),
      endAt: formatDateTime(row.end_at),
      capacity: row.capacity,
      // Written only from ENROL_MODES.
      enrolMode: row.enrol_mode as EnrolMode,
      enrolled: Number(row.enrolled),
      createBy: row.create_by,
      updateBy: row.update_by,
      createTime: formatDateTime(row.create_time),
      updateTime: formatDateTime(row.update_time),
    })),
  };
}

export async function findTerm(db: Kysely<Database>, id: number): Promise<Term | undefined> {
  return (await findTerms(db, { ids: [id] })).content[0];
}

function columnsOf(term: TermCreate) {
  return {
    course_id: term.courseId,
    name: term.name,
    start_at: term.startAt,
    end_at: term.endAt,
    capacity: term.capacity,
    enrol_mode: term.enrolMode,
  };
}

export async function insertTerm(db: Kysely<Database>, term: TermCreate, by: string, now: number): Promise<number> {
  const { id } = await db
    .insertInto('edu_term')
    .values({ ...columnsOf(term), ...created(by, now) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateTerm(db: Kysely<Database>, id: number, term: TermCreate, by: string, now: number): Promise<void> {
  await db
    .updateTable('edu_term')
    .set({ ...columnsOf(term), ...changed(by, now) })
    .where('id', '=', id)
    .execute();
}

export type TermHead = { id: number; name: string };

export async function findTermHeads(db: Kysely<Database>, ids: readonly number[]): Promise<Map<number, TermHead>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('edu_term').select(['id', 'name']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, row]));
}

/** How many applicants of each term are not rejected; terms with none are absent. */
export async function countTermEnrolments(db: Kysely<Database>, termIds: readonly number[]): Promise<Map<number, number>> {
  if (termIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('edu_applicant')
    .select((eb) => ['term_id', eb.fn.countAll().as('n')])
    .where('term_id', 'in', termIds)
    .where('status', '<>', REJECTED_STATUS)
    .groupBy('term_id')
    .execute();
  return new Map(rows.map((row) => [row.term_id, Number(row.n)]));
}

/** Deletes the terms with their (rejected) applicants. */
export async function deleteTerms(db: Kysely<Database>, ids: readonly number[]): Promise<void> {
  await db.deleteFrom('edu_applicant').where('term_id', 'in', ids).execute();
  await db.deleteFrom('edu_term').where('id', 'in', ids).execute();
}
