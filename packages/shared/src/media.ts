import { z } from 'zod';
import { idSchema, pageQuerySchema, sortableBy } from './http.js';

// Media: the videos, PDFs and images lessons and course covers use, stored once and shared.

export const MEDIA_KINDS = ['video', 'document', 'image'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

/** What `POST api/media` accepts, by the type its first bytes show. */
export const MEDIA_TYPES = {
  mp4: { mime: 'video/mp4', kind: 'video' },
  webm: { mime: 'video/webm', kind: 'video' },
  pdf: { mime: 'application/pdf', kind: 'document' },
  png: { mime: 'image/png', kind: 'image' },
  jpeg: { mime: 'image/jpeg', kind: 'image' },
  webp: { mime: 'image/webp', kind: 'image' },
} as const satisfies Record<string, { mime: string; kind: MediaKind }>;
export type MediaType = keyof typeof MEDIA_TYPES;

/** The default of `MEDIA_MAX_MB`, the largest upload `POST api/media` takes. */
export const MEDIA_MAX_MB_DEFAULT = 2048;

export const mediaSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  mime: z.string(),
  kind: z.enum(MEDIA_KINDS),
  size: z.number().int(),
  /** Read from the video's container by the server. */
  durationSeconds: z.number().optional(),
  /** Counted in the PDF by the server. */
  pages: z.number().int().optional(),
  createBy: z.string().nullable(),
  createTime: z.string(),
});
export type Media = z.infer<typeof mediaSchema>;

export const MEDIA_SORT_FIELDS = ['id', 'name', 'size', 'createTime'] as const;

/** `GET api/media`: the library a lesson's media picker lists. */
export const mediaQuerySchema = pageQuerySchema.extend({
  sort: sortableBy(MEDIA_SORT_FIELDS),
  q: z.string().trim().max(100).optional(),
  kind: z.enum(MEDIA_KINDS).optional(),
});
export type MediaQuery = z.output<typeof mediaQuerySchema>;

/** The address a media file is shown or played from. */
export const mediaContentPath = (id: number) => `api/media/${id}/content`;


/** `DELETE api/media`: refused (409) for a file a lesson or a course cover still uses. */
export const mediaIdsSchema = z.array(idSchema).min(1, 'list at least one id').max(1000);
