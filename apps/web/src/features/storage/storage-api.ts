import type { LocalStorage, LocalStorageRename } from '@cloud-classroom/shared/storage';
import { http } from '../../lib/http-client';

export const STORAGE_KEY = 'storage';
export const STORAGE_PATH = 'api/localStorage';

/** The server reads the multipart field `file`; `name` (optional) travels in the query string. */
export function uploadFile(file: File, name: string | undefined) {
  const form = new FormData();
  form.append('file', file, file.name);
  return http.post<LocalStorage>(STORAGE_PATH, form, { query: { name } });
}

export const renameFile = (body: LocalStorageRename) => http.put(STORAGE_PATH, body);
