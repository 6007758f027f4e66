import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../config.js';
import { LocalFileStore } from '../../files/local-file-store.js';
import { openTestDatabase, testConfig, type TestDatabase } from '../../test/test-app.js';
import { AccessService } from '../access/access.service.js';
import { storeMedia, MediaService } from './media.service.js';
import type { MediaUsage } from './media-usage.js';

// The courses module answers MediaUsage in the app; here it is a stand-in that says which ids a
// lesson uses, on a real database and file store.
describe('MediaService.delete with files in use', () => {
  let config: Config;
  let database: TestDatabase;
  const used = new Set<number>();
  let service: MediaService;
  const usage: MediaUsage = {
    usedAmong: async (ids) => ids.filter((id) => used.has(id)),
    readableBy: async () => false,
  };
  beforeAll(async () => {
    config = testConfig();
    database = await openTestDatabase(config);
    const { db } = database;
    service = new MediaService({
      db,
      files: new LocalFileStore(config.dataDir),
      clock: { now: () => Date.UTC(2026, 0, 5) },
      log: { warn: () => undefined, error: () => undefined },
      access: new AccessService(db),
      usage: () => usage,
    });
  });
  afterAll(async () => {
    await database.db.destroy();
    await database.dispose();
  });

  const store = (name: string) =>
    storeMedia(database.db, new LocalFileStore(config.dataDir), {
      type: 'png',
      name,
      // A 1×1 PNG, which pictures need no facts of.
      content: Readable.from([Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64')]),
      by: 'teacher',
      now: Date.UTC(2026, 0, 5),
    });

  it('refuses with 409 naming the files still used, deleting none of the batch', async () => {
    const lessonVideo = await store('第一课.png');
    const spare = await store('备用.png');
    used.add(lessonVideo.id);
    await expect(service.delete([spare.id, lessonVideo.id])).rejects.toMatchObject({
      kind: 'conflict',
      message: 'ids: still used by a lesson or a course cover: 第一课.png',
    });
    expect((await service.findMany([spare.id, lessonVideo.id])).map((media) => media.id).sort()).toEqual([lessonVideo.id, spare.id].sort());
    await service.delete([spare.id]);
    expect(await service.find(spare.id)).toBeUndefined();
  });
});
