import fs from 'node:fs';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../config.js';
import { LocalFileStore } from '../../files/local-file-store.js';
import { openTestDatabase, testConfig, type TestDatabase } from '../../test/test-app.js';
import { DEMO_MEDIA_FILES, demoMediaFolder, storeDemoMedia, type DemoMedia } from './demo-media.js';

const serverFolder = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../..');
const committedFolder = path.join(serverFolder, 'src', 'db', 'seed', 'demo-media');

describe('demo media', () => {
  let config: Config;
  let database: TestDatabase;
  let demo: DemoMedia;
  beforeAll(async () => {
    config = testConfig();
    database = await openTestDatabase(config);
    demo = await storeDemoMedia(database.db, new LocalFileStore(config.dataDir), Date.UTC(2026, 0, 5));
  });
  afterAll(async () => {
    await database.db.destroy();
    await database.dispose();
  });

  it('are found from the sources, from tsc output and from the bundle alike', () => {
    expect(demoMediaFolder()).toBe(committedFolder);
    for (const built of ['dist/modules/media/demo-media.js', 'dist/server-bundle.cjs']) {
      expect(demoMediaFolder(pathToFileURL(path.join(serverFolder, built)).href), built).toBe(committedFolder);
    }
  });

  it('are small', () => {
    const sizes = Object.fromEntries(fs.readdirSync(committedFolder).map((name) => [name, fs.statSync(path.join(committedFolder, name)).size]));
    expect(sizes['safety-intro.mp4']).toBeLessThan(1024 * 1024);
    expect(sizes['safety-handbook.pdf']).toBeLessThan(200 * 1024);
    expect(sizes['meeting-handbook.pdf']).toBeLessThan(200 * 1024);
    for (const cover of ['cover-safety.jpg', 'cover-onboarding.jpg', 'cover-infosec.jpg']) expect(sizes[cover]).toBeLessThan(60 * 1024);
  });

  it('are recorded with the facts of the real files: an 8 s video, a 4-page and a 3-page handbook, three covers', async () => {
    expect(demo.safetyVideo).toMatchObject({ kind: 'video', mime: 'video/mp4', createBy: 'system', createTime: expect.stringMatching(/^2026-01-0[45] /) });
    expect(demo.safetyVideo.durationSeconds).toBeCloseTo(8, 1);
    expect(demo.safetyHandbook).toMatchObject({ kind: 'document', mime: 'application/pdf', pages: 4 });
    expect(demo.meetingHandbook).toMatchObject({ kind: 'document', mime: 'application/pdf', pages: 3 });
    for (const cover of [demo.safetyCover, demo.onboardingCover, demo.infosecCover]) expect(cover).toMatchObject({ kind: 'image', mime: 'image/jpeg' });
    const rows = await database.db.selectFrom('edu_media').selectAll().orderBy('id').execute();
    expect(rows.map((row) => row.name)).toEqual(Object.values(DEMO_MEDIA_FILES).map((file) => file.name));
  });

  it('are stored through the file store, byte for byte', async () => {
    const store = new LocalFileStore(config.dataDir);
    for (const [handle, { file }] of Object.entries(DEMO_MEDIA_FILES) as [keyof DemoMedia, { file: string }][]) {
      const row = await database.db.selectFrom('edu_media').selectAll().where('id', '=', demo[handle].id).executeTakeFirstOrThrow();
      expect(row.file_key).toMatch(/^media\/202601\/[0-9a-f]{32}\.(mp4|pdf|jpg)$/);
      const original = fs.readFileSync(path.join(committedFolder, file));
      expect(row.size).toBe(original.length);
      expect(await buffer((await store.get(row.file_key))!)).toEqual(original);
    }
  });
});
