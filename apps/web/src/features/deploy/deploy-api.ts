import type { DeployPackage, DeployUpdate, DeployUploadFields } from '@cloud-classroom/shared/deploy';
import { listQuery } from '../../components/list-page/list-query';
import { http, type CallOptions } from '../../lib/http-client';
import { uploadWithProgress, type UploadOptions } from '../../lib/upload-with-progress';

const DEPLOY_PATH = 'api/deploy';

export const deployKeys = { all: ['deploy'] as const };

/** The published versions: `blurry` (name, version, file name, notes), `platform`, `createTime`. */
export const deployList = listQuery<DeployPackage>(deployKeys.all, DEPLOY_PATH);

/**
 * Publishes a version: the text fields first, then the file (the server checks the fields before
 * it stores a byte), over XMLHttpRequest for the progress of a large installer.
 */
export function uploadPackage(fields: DeployUploadFields, file: File, options?: Omit<UploadOptions, 'query'>): Promise<DeployPackage> {
  const form = new FormData();
  form.append('name', fields.name);
  form.append('version', fields.version);
  form.append('platform', fields.platform);
  form.append('releaseNotes', fields.releaseNotes);
  form.append('file', file, file.name);
  return uploadWithProgress<DeployPackage>(`${DEPLOY_PATH}/upload`, form, options);
}

export const updatePackage = (body: DeployUpdate, options?: CallOptions) => http.put(DEPLOY_PATH, body, options);

/** Where anyone downloads a version (the public page's link). */
export const packageFileUrl = (id: number) => `api/public/downloads/${id}/file`;
