import type { Backup, BackupSchedule, DatabaseStatus } from '@cloud-classroom/shared/database';
import { queryOptions } from '@tanstack/react-query';
import { listQuery } from '../../components/list-page/list-query';
import { apiUrl, http, type CallOptions } from '../../lib/http-client';
import { uploadWithProgress, type UploadOptions } from '../../lib/upload-with-progress';

const DATABASE_PATH = 'api/database';

export const databaseKeys = {
  all: ['database'] as const,
  backups: ['database', 'backups'] as const,
  status: ['database', 'status'] as const,
};

/** The backups, newest first; `kind` filters. */
export const backupList = listQuery<Backup>(databaseKeys.backups, DATABASE_PATH);

/** What the server backs up with, whether it can, and the schedule. */
export const databaseStatusQuery = () => queryOptions({ queryKey: databaseKeys.status, queryFn: ({ signal }) => http.get<DatabaseStatus>(`${DATABASE_PATH}/status`, undefined, { signal }) });

export const makeBackup = (options?: CallOptions) => http.post<Backup>(DATABASE_PATH, undefined, options);

export const saveSchedule = (schedule: BackupSchedule, options?: CallOptions) => http.put(`${DATABASE_PATH}/schedule`, schedule, options);

/** Sends the file as the multipart field `file`; the server keeps it only once it checks out. */
export function uploadBackup(file: File, options?: Omit<UploadOptions, 'query'>): Promise<Backup> {
  const form = new FormData();
  form.append('file', file, file.name);
  return uploadWithProgress<Backup>(`${DATABASE_PATH}/upload`, form, options);
}

/** A plain link: the route takes the session from the cookie, and the browser saves a large file as it comes. */
export const backupFileUrl = (name: string) => apiUrl(`${DATABASE_PATH}/files/${encodeURIComponent(name)}`);
