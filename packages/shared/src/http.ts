import { z } from 'zod';
import { toDate } from './display.js';

/**
 * "is required" for a missing value only. `z.string('is required')` would lend the text to every
 * check on the field, so a name that is too long would also read "name: is required".
 */
export const REQUIRED = {
  error: (issue: { input?: unknown }) => (issue.input === undefined || issue.input === null ? 'is required' : undefined),
};

/**
 * The largest id: every id column is a 32-bit integer on PostgreSQL (`serial`), so a larger one
 * names no row, and is refused here rather than by the database as an error.
 */
export const ID_MAX = 2_147_483_647;
/** A row's id in a JSON body. */
export const idSchema = z.number().int().positive().max(ID_MAX);
/** A row's id in a path or a query string, where it arrives as text. */
export const idTextSchema = z.coerce.number(REQUIRED).int().positive().max(ID_MAX);

export const errorBodySchema = z.object({
  status: z.number().int(),
  message: z.string(),
  timestamp: z.number().int(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

const sortOrder = z.string().regex(/^\w+(?:\.\w+)*,(?:asc|desc)$/, "expected 'field,asc' or 'field,desc'");

/** The most rows one page may hold (eladmin's clients ask for 9999 to mean "all"). */
export const MAX_PAGE_SIZE = 9999;

// Query strings carry numbers as text, and a repeated ?sort= arrives as an array while a single one is a string.
export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(0).default(0),
  size: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(10),
  sort: z.union([sortOrder.transform((order) => [order]), z.array(sortOrder)]).default([]),
});
export type PageQuery = z.output<typeof pageQuerySchema>;

export type SortOrder<Field extends string = string> = { field: Field; direction: 'asc' | 'desc' };

/**
 * `sort=field,dir` limited to the fields a list can be ordered by, parsed into pairs, so a
 * misspelt field is a 400 naming `sort` rather than a silently ignored order.
 */
export function sortableBy<const Field extends string>(fields: readonly Field[]) {
  return pageQuerySchema.shape.sort.transform((orders, ctx) =>
    orders.flatMap((order): SortOrder<Field>[] => {
      // pageQuerySchema has already checked the 'field,asc|desc' form.
      const [field = '', direction] = order.split(',') as [string, 'asc' | 'desc'];
      if ((fields as readonly string[]).includes(field)) return [{ field: field as Field, direction }];
      ctx.issues.push({ code: 'custom', input: order, message: `cannot sort by ${field}; use one of ${fields.join(', ')}` });
      return [];
    }),
  );
}

/** A time as the wire writes it, `yyyy-MM-dd HH:mm:ss` in the server's zone, read as epoch milliseconds. */
export const wireTimeSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, "expected 'yyyy-MM-dd HH:mm:ss'")
  .transform((text) => toDate(text).getTime())
  .refine((ms) => !Number.isNaN(ms), 'is not a valid time');

/**
 * `createTime=<start>&createTime=<end>` as epoch milliseconds, both ends inclusive: `to` is the
 * last millisecond of the end's second, as the wire's times have no finer grain.
 */
export const createTimeRangeSchema = z
  .tuple([wireTimeSchema, wireTimeSchema], 'expected a start and an end time')
  .transform(([from, end]) => ({ from, to: end + 999 }))
  .refine(({ from, to }) => from <= to, 'the end is before the start');
export type TimeRange = z.output<typeof createTimeRangeSchema>;

/** Query strings carry flags as the words 'true' and 'false'. */
export const queryFlagSchema = z.enum(['true', 'false']).transform((value) => value === 'true');

/**
 * One page of a list, as eladmin answers it: the page's rows and how many rows the whole list has;
 * beyond eladmin, `outsideScope` counts the rows that matched but that the reader's data scope hides
 * (absent when it hides none), so a list never looks complete when it is not.
 */
export type Page<T> = { content: T[]; totalElements: number; outsideScope?: number };

/** The page with each row turned into another shape (a table row into what the wire shows). */
export function mapPage<T, U>(page: Page<T>, map: (row: T) => U): Page<U> {
  return { ...page, content: page.content.map(map) };
}

/** The page with the number of matching rows the reader's scope hid, when there are any. */
export function withOutsideScope<T>(page: Page<T>, outsideScope: number): Page<T> {
  return outsideScope > 0 ? { ...page, outsideScope } : page;
}

/** The schema of a page of `item`s; its output is `Page<z.infer<typeof item>>`. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    content: z.array(item),
    totalElements: z.number().int().nonnegative(),
    outsideScope: z.number().int().positive().optional(),
  });
}

export const healthSchema = z.object({
  status: z.literal('UP'),
  version: z.string(),
  uptimeSeconds: z.number(),
  database: z.enum(['sqlite', 'postgres']),
});
export type Health = z.infer<typeof healthSchema>;

/** `GET api/health/ready`: the node takes traffic (its database answers); a 503 otherwise. */
export const readinessSchema = z.object({ status: z.literal('READY') });
