import { z } from 'zod';
import { createTimeRangeSchema, idSchema, idTextSchema, pageQuerySchema, queryFlagSchema, REQUIRED, sortableBy } from './http.js';

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
  pid: idTextSchema.optional(),
  createTime: createTimeRangeSchema.optional(),
});
export type DeptQuery = z.output<typeof deptQuerySchema>;

export const deptSuperiorQuerySchema = z.object({
  /** true: leave the given departments and everything below them out (a parent picker). */
  exclude: queryFlagSchema.default(false),
});

export const deptIdsSchema = z.array(idSchema).min(1, 'list at least one department').max(1000);

const deptFields = {
  name: z.string(REQUIRED).trim().min(1, 'is required').max(100),
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

export const deptUpdateSchema = z.object({ id: idSchema, ...deptFields });
export type DeptUpdate = z.output<typeof deptUpdateSchema>;
