import fs from 'node:fs';
import path from 'node:path';
import type { DeployPackage } from '@cloud-classroom/shared/deploy';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { FileStore } from '../../files/file-store.js';
import { demoMediaFolder } from '../media/demo-media.js';
import { anyPackage } from './deploy.repo.js';
import { storePackage } from './deploy.service.js';

/** The demo's one package: the learners' user guide (scripts/demo-media/user-guide.html, printed by Chromium). */
export const DEMO_PACKAGE = {
  file: 'user-guide.pdf',
  fileName: 'cloud-classroom-user-guide-1.0.pdf',
  fields: {
    name: '云课堂使用指南 User guide',
    version: '1.0',
    platform: 'any',
    releaseNotes: '学员使用指南：登录、学习、考试、证书与下载校验。\nFor learners: signing in, courses, exams, certificates and checking a download.',
  },
} as const;

/**
 * Publishes the demo user guide as an upload would (stored through the file store, its SHA-256
 * computed on the way), so `/download` is not empty on a fresh install; an install that publishes
 * anything already (packages are kept by `npm run seed -- --reset`) gets nothing. `db` may be the
 * seed's transaction; the file is swept as an orphan if that transaction rolls back.
 */
export async function publishDemoPackage(db: Kysely<Database>, files: FileStore, now: number): Promise<DeployPackage | undefined> {
  if (await anyPackage(db)) return undefined;
  const { file, fileName, fields } = DEMO_PACKAGE;
  const content = fs.createReadStream(path.join(demoMediaFolder(), file));
  return storePackage(db, files, { fields: { ...fields }, fileName, content, by: 'system', now });
}
