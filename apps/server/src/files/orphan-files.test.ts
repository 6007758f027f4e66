import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeLeftoverFiles } from '../services.js';
import { buildTestApp, loginAs } from '../test/test-app.js';
import { ORPHAN_MIN_AGE_MS } from './orphan-files.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

async function multipart(field: string, fileName: string, content: Buffer) {
  const form = new FormData();
  form.append(field, new Blob([content]), fileName);
  const encoded = new Response(form);
  return { 'content-type': encoded.headers.get('content-type') ?? '', payload: Buffer.from(await encoded.arrayBuffer()) };
}

const hex = () => crypto.randomBytes(16).toString('hex');

describe('files left behind by interrupted uploads', () => {
  let app: FastifyInstance;
  let dataDir: string;
  beforeAll(async () => {
    app = await buildTestApp();
    dataDir = app.services.config.dataDir;
  });
  afterAll(async () => {
    await app.close();
  });

  /** Writes a file under the data folder, last modified `ageMs` ago. */
  const place = (relative: string, ageMs: number) => {
    const file = path.join(dataDir, ...relative.split('/'));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'left behind');
    age(relative, ageMs);
    return relative;
  };
  const age = (relative: string, ageMs: number) => {
    const time = new Date(Date.now() - ageMs);
    fs.utimesSync(path.join(dataDir, ...relative.split('/')), time, time);
  };
  const exists = (relative: string) => fs.existsSync(path.join(dataDir, ...relative.split('/')));

  it('are removed at start when old and referred to by no row; young ones, recorded ones and anything else stay', async () => {
    const admin = await loginAs(app, 'admin');
    const upload = async (url: string, field: string, fileName: string) => {
      const { 'content-type': contentType, payload } = await multipart(field, fileName, PNG);
      const response = await app.inject({ method: 'POST', url, headers: { authorization: admin, 'content-type': contentType }, payload });
      expect(response.statusCode, response.body).toBeLessThan(300);
      return response.json() as { url?: string; avatar?: string };
    };
    const storedUrl = (await upload('/api/localStorage', 'file', 'kept.png')).url ?? '';
    const stored = storedUrl.replace(/^\/file\//, 'files/');
    const avatar = `avatar/${(await upload('/api/users/updateAvatar', 'avatar', 'me.png')).avatar ?? ''}`;
    const old = ORPHAN_MIN_AGE_MS + 60_000;
    age(stored, old);
    age(avatar, old);
    const month = stored.split('/')[1] ?? '';

    const oldOrphans = [
      place(`files/${month}/${hex()}.png`, old),
      place(`files/201901/${hex()}.pdf`, old),
      place(`avatar/${hex()}.jpg`, old),
      // What a write killed before its rename leaves.
      place(`files/${month}/.${hex()}.mp4.0123456789abcdef.partial`, old),
      place(`avatar/.${hex()}.png.fedcba9876543210.partial`, old),
    ];
    const young = [
      place(`files/${month}/${hex()}.png`, ORPHAN_MIN_AGE_MS - 60_000),
      place(`avatar/${hex()}.png`, 1000),
      place(`files/${month}/.${hex()}.mp4.1111111111111111.partial`, 1000),
    ];
    const elsewhere = [place('notes.txt', old), place('backups/old.sqlite', old)];
    const databaseFiles = fs.readdirSync(dataDir).filter((name) => name.endsWith('.sqlite'));

    expect(await removeLeftoverFiles(app.services)).toBe(oldOrphans.length);
    for (const file of oldOrphans) expect(exists(file), file).toBe(false);
    for (const file of [...young, ...elsewhere, stored, avatar]) expect(exists(file), file).toBe(true);
    for (const name of databaseFiles) expect(fs.existsSync(path.join(dataDir, name)), name).toBe(true);
    // Still served: the sweep took nothing anyone refers to.
    expect((await app.inject({ method: 'GET', url: storedUrl })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: `/${avatar}` })).statusCode).toBe(200);

    expect(await removeLeftoverFiles(app.services)).toBe(0);
  });
});
