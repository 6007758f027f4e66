import type { Media } from '@cloud-classroom/shared/media';
import { listQuery } from '../../components/list-page/list-query';
import { uploadWithProgress, type UploadOptions } from '../../lib/upload-with-progress';

const MEDIA_PATH = 'api/media';

export const mediaKeys = { all: ['media'] as const };

/** The library: filter by `kind` and `q`. */
export const mediaList = listQuery<Media>(mediaKeys.all, MEDIA_PATH);

/** Sends one file as the multipart field `file`; the server reads its type from its first bytes. */
export function uploadMedia(file: File, options?: Omit<UploadOptions, 'query'>): Promise<Media> {
  const form = new FormData();
  form.append('file', file, file.name);
  return uploadWithProgress<Media>(MEDIA_PATH, form, options);
}
