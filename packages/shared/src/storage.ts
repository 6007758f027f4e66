import { z } from 'zod';
import { createTimeRangeSchema, idSchema, pageQuerySchema, REQUIRED, sortableBy } from './http.js';

/** eladmin's file categories, kept verbatim on the wire like the data scopes; the web app translates them. */
export const FILE_CATEGORIES = ['图片', '文档', '音乐', '视频'] as const;
export type FileCategory = (typeof FILE_CATEGORIES)[number];

/**
 * What local storage accepts, by extension. The server also checks that the content is what the
 * extension says (by its first bytes, or as UTF-8 text), so a renamed file gets nowhere; the web
 * app offers the list in its file picker.
 */
export const STORABLE_FILE_TYPES = {
  png: { mime: 'image/png', category: '图片' },
  jpg: { mime: 'image/jpeg', category: '图片' },
  jpeg: { mime: 'image/jpeg', category: '图片' },
  gif: { mime: 'image/gif', category: '图片' },
  webp: { mime: 'image/webp', category: '图片' },
  pdf: { mime: 'application/pdf', category: '文档' },
  docx: { mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', category: '文档' },
  xlsx: { mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', category: '文档' },
  pptx: { mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation', category: '文档' },
  txt: { mime: 'text/plain; charset=utf-8', category: '文档' },
  csv: { mime: 'text/csv; charset=utf-8', category: '文档' },
  md: { mime: 'text/markdown; charset=utf-8', category: '文档' },
  mp3: { mime: 'audio/mpeg', category: '音乐' },
  mp4: { mime: 'video/mp4', category: '视频' },
} as const satisfies Record<string, { mime: string; category: FileCategory }>;
export type StorableExtension = keyof typeof STORABLE_FILE_TYPES;

export const STORABLE_EXTENSIONS = Object.keys(STORABLE_FILE_TYPES) as StorableExtension[];

/** What the rich-text editors may insert (`POST api/localStorage/pictures`). */
export const PICTURE_EXTENSIONS = ['png', 'jpg', 'jpeg', 'gif', 'webp'] as const satisfies readonly StorableExtension[];

export const STORAGE_MAX_BYTES = 100 * 1024 * 1024;
export const PICTURE_MAX_BYTES = 5 * 1024 * 1024;
export const STORAGE_NAME_MAX_LENGTH = 255;

/** A stored file as every answer shows one; where it lies on disk is never said. */
export const localStorageSchema = z.object({
  id: z.number().int(),
  /** The generated name it is stored under. */
  realName: z.string(),
  /** The name people see and download it as. */
  name: z.string(),
  suffix: z.string(),
  type: z.enum(FILE_CATEGORIES),
  /** Human-readable, like eladmin's ('1.50 MiB'); `bytes` is the number. */
  size: z.string(),
  bytes: z.number().int(),
  /** Where the file is served, relative to the server root: `/file/<yyyyMM>/<realName>`. */
  url: z.string(),
  createBy: z.string().nullable(),
  updateBy: z.string().nullable(),
  createTime: z.string(),
  updateTime: z.string(),
});
export type LocalStorage = z.infer<typeof localStorageSchema>;

export const LOCAL_STORAGE_SORT_FIELDS = ['id', 'name', 'realName', 'suffix', 'type', 'size', 'createTime', 'updateTime'] as const;

/** `GET api/localStorage` and its download: `blurry` matches the name, suffix, category or uploader. */
export const localStorageQuerySchema = pageQuerySchema.extend({
  blurry: z.string().trim().max(100).optional(),
  createTime: createTimeRangeSchema.optional(),
  sort: sortableBy(LOCAL_STORAGE_SORT_FIELDS),
});
export type LocalStorageQuery = z.output<typeof localStorageQuerySchema>;

/** `POST api/localStorage?name=`: without a name (or with a blank one) the file keeps the name it was uploaded with. */
export const localStorageUploadQuerySchema = z.object({
  name: z.string().trim().max(STORAGE_NAME_MAX_LENGTH).optional(),
});

export const localStorageRenameSchema = z.object({
  id: idSchema,
  name: z.string(REQUIRED).trim().min(1, 'is required').max(STORAGE_NAME_MAX_LENGTH),
});
export type LocalStorageRename = z.output<typeof localStorageRenameSchema>;

export const localStorageIdsSchema = z.array(idSchema).min(1, 'is required').max(1000);
