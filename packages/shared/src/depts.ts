import { z } from 'zod';
import { toDate } from './display.js';
import { pageQuerySchema } from './http.js';

const wireTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, "expected 'yyyy-MM-dd HH:mm:ss'")
  .transform((text) => toDate(text).getTime())
  .refine((ms) => !Number.isNaN(ms), 'is not a valid time');

/**
 * `createTime=<start>&createTime=<end>` as epoch milliseconds [from, to], both inclusive; the
 * end reaches to the last millisecond of its second, as the wire's times have no finer grain.
 */
export const createTimeRangeSchema = z
  .tuple([wireTime, wireTime], 'expected a start and an end time')
  .transform(([from, end]): [number, number] => [from, end + 999]);

/** Query strings carry flags as the words 'true' and 'false'. */
export const queryFlagSchema = z.enum(['true', 'false']).transform((value) => value === 'true');

/**
 * `sort=field,dir` limited to the fields a list can be ordered by, parsed into pairs, so a
 * misspelt field is a 400 naming `sort` rather than a silently ignored order.
 */
export function sortableBy<const Field extends string>(fields: readonly Field[]) {
  return pageQuerySchema.shape.sort.transform((orders, ctx) =>
    orders.flatMap((order) => {
      // pageQuerySchema has already checked the 'field,asc|desc' form.
      const [field = '', direction] = order.split(',') as [string, 'asc' | 'desc'];
      if ((fields as readonly string[]).includes(field)) return [{ field: field as Field, direction }];
      ctx.issues.push({ code: 'custom', input: order, message: `cannot sort by ${field}; use one of ${fields.join(', ')}` });
      return [];
    }),
  );
}

export const deptSchema = z.object({
  id: z.number().int(),
  /** null for a top-level department. */
  pid: z.number().int().nullable(),
  name: z.string(),
  enabled: z.boolean(),
  deptSort: z.number().int(),
  subCount: z.number().int(),
  hasChildren: z.boolean(),
  leaf: z.boolean(),
  /** The name again, under the key tree pickers read. */
  label: z.string(),
  createBy: z.string().nullable(),
  updateBy: z.string().nullable(),
  createTime: z.string(),
  updateTime: z.string(),
});
export type Dept = z.infer<typeof deptSchema>;

/** A department of the superior tree; `children` only where the tree goes further down. */
export const deptTreeSchema = deptSchema.extend({
  get children() {
    return z.array(deptTreeSchema).optional();
  },
});
export type DeptTree = z.infer<typeof deptTreeSchema>;

export const DEPT_SORT_FIELDS = ['id', 'name', 'deptSort', 'enabled', 'createTime', 'updateTime'] as const;

export const deptQuerySchema = pageQuerySchema.extend({
  sort: sortableBy(DEPT_SORT_FIELDS),
  name: z.string().trim().max(100).optional(),
  enabled: queryFlagSchema.optional(),
  /** The children of this department; without it and without other filters, the top level. */
  pid: z.coerce.number().int().positive().optional(),
  createTime: createTimeRangeSchema.optional(),
});
export type DeptQuery = z.output<typeof deptQuerySchema>;

export const deptSuperiorQuerySchema = z.object({
  /** true: leave the given departments and everything below them out (a parent picker). */
  exclude: queryFlagSchema.default(false),
});

export const deptIdsSchema = z.array(z.number().int().positive()).min(1, 'list at least one department').max(1000);

const deptFields = {
  name: z.string('is required').trim().min(1, 'is required').max(100),
  /** 0, null or absent: a top-level department. */
  pid: z
    .number()
    .int()
    .nonnegative()
    .nullish()
    .transform((pid) => (pid === 0 || pid === undefined ? null : pid)),
  deptSort: z.number().int().min(0).max(999_999).default(999),
  enabled: z.boolean().default(true),
};

export const deptCreateSchema = z.object(deptFields);
export type DeptCreate = z.output<typeof deptCreateSchema>;

export const deptUpdateSchema = z.object({ id: z.number().int().positive(), ...deptFields });
export type DeptUpdate = z.output<typeof deptUpdateSchema>;
