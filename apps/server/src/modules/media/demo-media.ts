import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Media, MediaType } from '@cloud-classroom/shared/media';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { FileStore } from '../../files/file-store.js';
import { storeMedia } from './media.service.js';

/** The demo media files as the seed refers to them. */
export type DemoMedia = {
  /** 8 s, 640×360 H.264 with a quiet tone. */
  safetyVideo: Media;
  /** The 4-page safety training handbook, in Chinese and English. */
  safetyHandbook: Media;
  /** The 3-page meeting communication handbook, in Chinese and English (the communication course's). */
  meetingHandbook: Media;
  /** 640×360 course covers. */
  safetyCover: Media;
  onboardingCover: Media;
  infosecCover: Media;
};

/** Each file of the demo media folder, made by scripts/demo-media/make-demo-media.sh, with the name the library shows. */
export const DEMO_MEDIA_FILES: Record<keyof DemoMedia, { file: string; type: MediaType; name: string }> = {
  safetyVideo: { file: 'safety-intro.mp4', type: 'mp4', name: '安全培训导学 Safety introduction.mp4' },
  safetyHandbook: { file: 'safety-handbook.pdf', type: 'pdf', name: '安全培训手册 Safety training handbook.pdf' },
  meetingHandbook: { file: 'meeting-handbook.pdf', type: 'pdf', name: '会议沟通参考手册 Meeting communication handbook.pdf' },
  safetyCover: { file: 'cover-safety.jpg', type: 'jpeg', name: '安全生产培训封面.jpg' },
  onboardingCover: { file: 'cover-onboarding.jpg', type: 'jpeg', name: '新员工入职封面.jpg' },
  infosecCover: { file: 'cover-infosec.jpg', type: 'jpeg', name: '信息安全意识封面.jpg' },
};

/**
 * `apps/server/src/db/seed/demo-media/`, found from the server package's folder: the nearest one
 * above this code holding a package.json, which is apps/server whether this runs from src/ (tests),
 * from tsc's dist/modules/media/ (`npm run seed`) or bundled in dist/server-bundle.cjs (`npm start`).
 */
export function demoMediaFolder(from: string = import.meta.url): string {
  let folder = path.dirname(fileURLToPath(from));
  while (!fs.existsSync(path.join(folder, 'package.json'))) {
    const parent = path.dirname(folder);
    if (parent === folder) throw new Error(`no package.json above ${fileURLToPath(from)}: cannot find the demo media`);
    folder = parent;
  }
  return path.join(folder, 'src', 'db', 'seed', 'demo-media');
}

/**
 * Stores the demo media files through the file store and records each in `edu_media` with the
 * facts read from the files themselves (the video's duration, the handbook's pages), as an upload
 * would. `db` may be the seed's transaction; the files it stores are swept as orphans if that
 * transaction rolls back.
 */
export async function storeDemoMedia(db: Kysely<Database>, files: FileStore, now: number): Promise<DemoMedia> {
  const folder = demoMediaFolder();
  const stored: Partial<DemoMedia> = {};
  for (const [handle, { file, type, name }] of Object.entries(DEMO_MEDIA_FILES) as [keyof DemoMedia, (typeof DEMO_MEDIA_FILES)[keyof DemoMedia]][]) {
    stored[handle] = await storeMedia(db, files, { type, name, content: fs.createReadStream(path.join(folder, file)), by: 'system', now });
  }
  return stored as DemoMedia;
}
