import type { LocalStorage, LocalStorageRename } from '@cloud-classroom/shared/storage';
import { listQuery } from '../../components/list-page/list-query';
import { http, type CallOptions } from '../../lib/http-client';

const STORAGE_PATH = 'api/localStorage';

export const storageKeys = { all: ['storage'] as const };

export const storageList = listQuery<LocalStorage>(storageKeys.all, STORAGE_PATH);

/** The server reads the multipart field `file`; `name` (optional) travels in the query string. */
export function uploadFile(file: File, name: string | undefined, options?: CallOptions) {
  const form = new FormData();
  form.append('file', file, file.name);
  return http.post<LocalStorage>(STORAGE_PATH, form, { ...options, query: { name } });
}

export const renameFile = (body: LocalStorageRename, options?: CallOptions) => http.put(STORAGE_PATH, body, options);
