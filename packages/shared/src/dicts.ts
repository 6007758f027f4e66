import { z } from 'zod';
import { idSchema, idTextSchema, pageQuerySchema, REQUIRED, sortableBy } from './http.js';

const auditFields = {
  createBy: z.string().nullable(),
  updateBy: z.string().nullable(),
  createTime: z.string(),
  updateTime: z.string(),
};


export const dictSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  ...auditFields,
});
export type Dict = z.infer<typeof dictSchema>;

export const DICT_SORT_FIELDS = ['id', 'name', 'description', 'createTime', 'updateTime'] as const;

/** `GET api/dict` and its download: `blurry` matches the name or the description. */
export const dictQuerySchema = pageQuerySchema.extend({
  blurry: z.string().trim().max(100).optional(),
  sort: sortableBy(DICT_SORT_FIELDS),
});
export type DictQuery = z.output<typeof dictQuerySchema>;

export const dictBodySchema = z.object({
  name: z.string(REQUIRED).trim().min(1, 'is required').max(100),
  description: z.string().trim().max(255).nullish(),
});
export type DictBody = z.output<typeof dictBodySchema>;

export const dictUpdateBodySchema = dictBodySchema.extend({ id: idSchema });
export type DictUpdateBody = z.output<typeof dictUpdateBodySchema>;

export const dictIdsSchema = z.array(idSchema).min(1, 'is required').max(1000);

export const dictDetailSchema = z.object({
  id: z.number().int(),
  /** The Chinese label, which every entry has (eladmin's field). */
  label: z.string(),
  /** The English label; null when staff gave none, and the Chinese one is shown instead. */
  labelEn: z.string().nullable(),
  value: z.string(),
  dictSort: z.number().int(),
  dict: z.object({ id: z.number().int() }),
  ...auditFields,
});
export type DictDetail = z.infer<typeof dictDetailSchema>;

export const DICT_DETAIL_SORT_FIELDS = ['id', 'label', 'value', 'dictSort', 'createTime', 'updateTime'] as const;

/** `GET api/dictDetail`: the entries of one dictionary, `label` matching part of either label. */
export const dictDetailQuerySchema = pageQuerySchema.extend({
  dictName: z.string(REQUIRED).trim().min(1, 'is required').max(100),
  label: z.string().trim().max(100).optional(),
  sort: sortableBy(DICT_DETAIL_SORT_FIELDS),
});
export type DictDetailQuery = z.output<typeof dictDetailQuerySchema>;

/**
 * `GET api/dictDetail/map?dictName=a,b`: names split on ASCII or full-width commas. The client
 * also sends page and size here; they are dropped like any unknown parameter.
 */
export const dictDetailMapQuerySchema = z.object({
  dictName: z
    .string('is required')
    .transform((names) => [...new Set(names.split(/[,，]/).map((name) => name.trim()).filter((name) => name !== ''))])
    .pipe(z.array(z.string().max(100)).min(1, 'is required').max(100)),
});

export const dictDetailMapSchema = z.record(z.string(), z.array(dictDetailSchema));
export type DictDetailMap = z.infer<typeof dictDetailMapSchema>;

export const dictDetailBodySchema = z.object({
  label: z.string(REQUIRED).trim().min(1, 'is required').max(100),
  // The form sends '' when there is no English label; it is stored as null.
  labelEn: z
    .string()
    .trim()
    .max(100)
    .nullish()
    .transform((text) => (text ? text : null)),
  value: z.string(REQUIRED).trim().min(1, 'is required').max(100),
  dictSort: z.number().int().min(0).max(999_999).default(999),
  dict: z.object({ id: idSchema }, 'is required'),
});
export type DictDetailBody = z.output<typeof dictDetailBodySchema>;

export const dictDetailUpdateBodySchema = dictDetailBodySchema.extend({ id: idSchema });
export type DictDetailUpdateBody = z.output<typeof dictDetailUpdateBodySchema>;

export const dictDetailIdParamsSchema = z.object({ id: idTextSchema });
