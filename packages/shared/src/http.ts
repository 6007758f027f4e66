import { z } from 'zod';

export const errorBodySchema = z.object({
  status: z.number().int(),
  message: z.string(),
  timestamp: z.number().int(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

const sortOrder = z.string().regex(/^\w+(?:\.\w+)*,(?:asc|desc)$/, "expected 'field,asc' or 'field,desc'");

// Query strings carry numbers as text, and a repeated ?sort= arrives as an array while a single one is a string.
export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(0).default(0),
  size: z.coerce.number().int().min(1).max(9999).default(10),
  sort: z.union([sortOrder.transform((order) => [order]), z.array(sortOrder)]).default([]),
});
export type PageQuery = z.output<typeof pageQuerySchema>;

export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    content: z.array(item),
    totalElements: z.number().int().nonnegative(),
  });
}

export const healthSchema = z.object({
  status: z.literal('UP'),
  version: z.string(),
  uptimeSeconds: z.number(),
  database: z.enum(['sqlite', 'postgres']),
});
export type Health = z.infer<typeof healthSchema>;
