import type { CloudConfig, CloudConfigInput, CloudFile, CloudLink, CloudSync } from '@cloud-classroom/shared/cloud-storage';
import { listQuery } from '../../components/list-page/list-query';
import { http, type CallOptions } from '../../lib/http-client';
import { uploadWithProgress, type UploadOptions } from '../../lib/upload-with-progress';

const PATH = 'api/qiNiuContent';

export const cloudKeys = { all: ['cloud-storage'] as const, config: ['cloud-storage', 'config'] as const };

/** The files listed for the configured bucket: `blurry` (name, key, suffix). */
export const cloudFileList = listQuery<CloudFile>(cloudKeys.all, PATH);

export const fetchCloudConfig = () => http.get<CloudConfig>(`${PATH}/config`);
export const saveCloudConfig = (body: CloudConfigInput, options?: CallOptions) => http.put<CloudConfig>(`${PATH}/config`, body, options);
export const checkCloudConfig = () => http.post(`${PATH}/config/check`);
export const syncCloudFiles = () => http.post<CloudSync>(`${PATH}/synchronize`);
export const cloudFileLink = (id: number) => http.get<CloudLink>(`${PATH}/download/${id}`);

/** Sends a file to the bucket through the server, over XMLHttpRequest for its progress. */
export function uploadCloudFile(file: File, options?: Omit<UploadOptions, 'query'>): Promise<CloudFile> {
  const form = new FormData();
  form.append('file', file, file.name);
  return uploadWithProgress<CloudFile>(PATH, form, options);
}
