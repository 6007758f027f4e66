import { z } from 'zod';
import { createTimeRangeSchema, idSchema, pageQuerySchema, REQUIRED, sortableBy } from './http.js';
import { dataScopeSchema, deptRefSchema } from './users.js';

/** Levels run from 1 (the most powerful) down; a user manages only roles at or below their own. */
export const MIN_ROLE_LEVEL = 1;
export const MAX_ROLE_LEVEL = 999;

export const menuRefSchema = z.object({ id: z.number().int(), title: z.string() });

export const roleSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  level: z.number().int(),
  dataScope: dataScopeSchema,
  /** Chinese; `descriptionEn` the English one (null: the Chinese one shows in English too). */
  description: z.string().nullable(),
  descriptionEn: z.string().nullable(),
  /** The chosen departments of a '自定义' data scope; empty for the other scopes. */
  depts: z.array(deptRefSchema),
  menus: z.array(menuRefSchema),
  createBy: z.string().nullable(),
  updateBy: z.string().nullable(),
  createTime: z.string(),
  updateTime: z.string(),
});
export type Role = z.infer<typeof roleSchema>;

export const roleLevelSchema = z.object({
  /** The caller's best (lowest) role level; null for a user who holds no role. */
  level: z.number().int().nullable(),
});
export type RoleLevel = z.infer<typeof roleLevelSchema>;

export const ROLE_SORT_FIELDS = ['id', 'name', 'level', 'dataScope', 'description', 'createTime', 'updateTime'] as const;

export const roleQuerySchema = pageQuerySchema.extend({
  sort: sortableBy(ROLE_SORT_FIELDS),
  /** Matches the name or the description. */
  blurry: z.string().trim().max(100).optional(),
  createTime: createTimeRangeSchema.optional(),
});
export type RoleQuery = z.output<typeof roleQuerySchema>;

const idRef = z.object({ id: idSchema });
const optionalText = z
  .string()
  .trim()
  .max(255)
  .nullish()
  .transform((text) => text || null);

const roleFields = {
  name: z.string(REQUIRED).trim().min(1, 'is required').max(64),
  level: z.number(REQUIRED).int().min(MIN_ROLE_LEVEL).max(MAX_ROLE_LEVEL),
  dataScope: dataScopeSchema,
  description: optionalText,
  descriptionEn: optionalText,
  depts: z.array(idRef).max(1000).default([]),
};

// Shared by the form and the server: a custom scope with no department would show nobody.
const customScopeHasDepts = (role: { dataScope: string; depts: unknown[] }) => role.dataScope !== '自定义' || role.depts.length > 0;
const customScopeError = { path: ['depts'], message: "choose at least one department for the '自定义' data scope" };

export const roleCreateSchema = z.object(roleFields).refine(customScopeHasDepts, customScopeError);
export type RoleCreate = z.output<typeof roleCreateSchema>;

export const roleUpdateSchema = z.object({ id: idSchema, ...roleFields }).refine(customScopeHasDepts, customScopeError);
export type RoleUpdate = z.output<typeof roleUpdateSchema>;

export const roleMenusSchema = z.object({ id: idSchema, menus: z.array(idRef).max(10_000) });
export type RoleMenus = z.output<typeof roleMenusSchema>;

export const roleIdsSchema = z.array(idSchema).min(1, 'list at least one role').max(1000);
