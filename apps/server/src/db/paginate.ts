import { MAX_PAGE_SIZE, type Page, type SortOrder } from '@cloud-classroom/shared/http';
import { sql, type SelectQueryBuilder } from 'kysely';
import { invalidInput } from '../domain-error.js';
import { countRows } from './list-filters.js';

export type Direction = 'asc' | 'desc';
export type ColumnOrder = readonly [column: string, direction: Direction];

/** How a list may be ordered: what a request may ask for, and what the list falls back on. */
export type Ordering<Field extends string = string> = {
  /** The fields a request may sort by, each with its column; asking for any other is refused. */
  sortable: Readonly<Record<Field, string>>;
  /**
   * The sortable fields whose column may hold nulls. They sort as the smallest values on both
   * dialects (SQLite's and eladmin's MySQL's way; PostgreSQL has to be told). Only these get the
   * NULLS clause, since it keeps PostgreSQL from reading a plain index in order.
   */
  nullable?: readonly Field[];
  /** The order when the request asks for none. */
  byDefault?: readonly ColumnOrder[];
  /**
   * Appended to every order, ending at a unique column (the id): without it rows that tie could
   * change places between two requests, so that paging shows one row twice and skips another.
   */
  tiebreak: readonly [...ColumnOrder[], ColumnOrder];
};

/** 0-based page and size; without them, every matching row. */
export type ListRequest = { sort?: readonly SortOrder[] | undefined; page?: number | undefined; size?: number | undefined };

// The escape hatch for builders whose tables differ from the filtered one's (a join added to select columns).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnySelect<O> = SelectQueryBuilder<any, any, O>;

/**
 * The one way a list is read: `filtered` holds the filters (and nothing selected), `select`
 * chooses the columns; the answer is the rows of the asked page in the asked order, and how many
 * rows the filters match, counted by the same filters. The same SQL runs on both dialects.
 */
export async function paginate<Filtered extends AnySelect<object>, O, Field extends string>(
  filtered: Filtered,
  select: (query: Filtered) => AnySelect<O>,
  ordering: Ordering<Field>,
  request: ListRequest,
): Promise<Page<O>> {
  const paging = pagingOf(request);
  let query = select(filtered);
  for (const [column, direction, nullable] of orderOf(ordering, request.sort ?? [])) {
    const item = sql.ref(column);
    query = nullable
      ? query.orderBy(item, (order) => (direction === 'asc' ? order.asc().nullsFirst() : order.desc().nullsLast()))
      : query.orderBy(item, direction);
  }
  if (paging === undefined) {
    const content = await query.execute();
    return { content, totalElements: content.length };
  }
  const [content, totalElements] = await Promise.all([
    query.limit(paging.size).offset(paging.page * paging.size).execute(),
    countRows(filtered),
  ]);
  return { content, totalElements };
}

function pagingOf({ page, size }: ListRequest): { page: number; size: number } | undefined {
  if (page === undefined && size === undefined) return undefined;
  const index = page ?? 0;
  const rows = size ?? 10;
  if (!Number.isSafeInteger(index) || index < 0) throw invalidInput('page: must be a whole number of 0 or more');
  if (!Number.isSafeInteger(rows) || rows < 1 || rows > MAX_PAGE_SIZE) {
    throw invalidInput(`size: must be a whole number from 1 to ${MAX_PAGE_SIZE}`);
  }
  return { page: index, size: rows };
}

/** The ORDER BY items: the asked order (or the default) and then the tiebreak; asked columns may hold nulls. */
function orderOf<Field extends string>(ordering: Ordering<Field>, sort: readonly SortOrder[]): Array<readonly [string, Direction, boolean]> {
  const sortable: Readonly<Record<string, string>> = ordering.sortable;
  const nullable: readonly string[] = ordering.nullable ?? [];
  const asked = sort.map(({ field, direction }) => {
    const column = Object.hasOwn(sortable, field) ? sortable[field] : undefined;
    if (column === undefined) throw invalidInput(`sort: cannot sort by ${field}; use one of ${Object.keys(sortable).join(', ')}`);
    // The query schemas allow only these two; a caller that skipped them must not reach the SQL either.
    if (direction !== 'asc' && direction !== 'desc') throw invalidInput(`sort: expected ${field},asc or ${field},desc`);
    return [column, direction, nullable.includes(field)] as const;
  });
  const base = asked.length > 0 ? asked : (ordering.byDefault ?? []).map(([column, direction]) => [column, direction, false] as const);
  return [...base, ...ordering.tiebreak.map(([column, direction]) => [column, direction, false] as const)];
}
