import type { Readable } from 'node:stream';
import type { FileType } from './file-type.js';

/** One uploaded file as services take it, whoever read it off the wire (`upload-reader.ts`). */
export type Upload = {
  /** The form field it came in, which messages about it start with. */
  field: string;
  /** The name the client sent; only its last path segment and extension may be trusted to mean anything. */
  fileName: string;
  /** The part's Content-Type as the client sent it: a claim to check, never the type itself. */
  mimeType: string;
  /** Told from the first bytes (`detectFileType`). */
  type: FileType;
  /** The upload had no bytes at all. */
  empty: boolean;
  /** The multipart text fields that came before the file, by name (the last of a repeated one): unchecked input. */
  fields: Record<string, string>;
  /** The whole file; it fails (413 naming the field) past the reader's size limit. */
  content: Readable;
};
