// The reference for GET api/media/{id}/content with a Range header: bare node:http doing the same
// essential work as the product — check the token and the session, find the file's key and type
// by id with a prepared statement, stat the file under DATA_DIR, and stream the asked bytes with
// fs.createReadStream (206, Content-Range, Accept-Ranges) — with no framework, no query builder,
// no validators (ETag, If-Range), no hooks. Only the administrator's view; only `bytes=a-b`.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import { announceReady } from './announce-ready.js';
import { bareSessionCheck } from './bare-session.js';

const dataDir = process.env.DATA_DIR;
if (dataDir === undefined) throw new Error('DATA_DIR is not set');
const db = new Database(path.join(dataDir, 'cloud-classroom.sqlite'));
const sessionOf = bareSessionCheck(db);
const findMedia = db.prepare('select file_key, mime from edu_media where id = ?');

const server = http.createServer((request, response) => {
  const session = sessionOf(request.headers.authorization);
  if (session === undefined || session.is_admin !== 1) {
    response.writeHead(session === undefined ? 401 : 403).end();
    return;
  }
  const media = findMedia.get(Number(request.url?.split('/')[3])) as { file_key: string; mime: string } | undefined;
  const range = /^bytes=(\d+)-(\d+)$/.exec(request.headers.range ?? '');
  if (media === undefined || range === null) {
    response.writeHead(media === undefined ? 404 : 400).end();
    return;
  }
  const file = path.join(dataDir, ...media.file_key.split('/'));
  fs.stat(file, (error, stat) => {
    if (error !== null) {
      response.writeHead(404).end();
      return;
    }
    const start = Number(range[1]);
    const end = Math.min(Number(range[2]), stat.size - 1);
    response.writeHead(206, {
      'content-type': media.mime,
      'accept-ranges': 'bytes',
      'content-range': `bytes ${start}-${end}/${stat.size}`,
      'content-length': end - start + 1,
    });
    fs.createReadStream(file, { start, end }).pipe(response);
  });
});
server.listen(0, '127.0.0.1', () => announceReady(server));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
