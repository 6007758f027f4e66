// The reference for GET api/menus/build: bare node:http doing the same essential work as the
// product — verify the token's signature, read the session and the caller's menus from the
// same SQLite database with prepared statements, build the same tree, stringify it — with no
// framework, no query builder, no schemas, no hooks.
import http from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { RouteMenuRow } from '../../apps/server/dist/modules/menus/menus.repo.js';
import { routesOf } from '../../apps/server/dist/modules/menus/menus.service.js';
import { announceReady } from './announce-ready.js';
import { bareSessionCheck } from './bare-session.js';

const dataDir = process.env.DATA_DIR;
if (dataDir === undefined) throw new Error('DATA_DIR is not set');
const db = new Database(path.join(dataDir, 'cloud-classroom.sqlite'));
const sessionOf = bareSessionCheck(db);

const columns = 'id, pid, type, title, title_en, component_name, component, path, icon, i_frame, cache';
const allMenus = db.prepare(`select ${columns} from sys_menu where type != 2 and hidden = 0 order by menu_sort, id`);
const menusOfUser = db.prepare(
  `select ${columns} from sys_menu where type != 2 and hidden = 0 and id in (select rm.menu_id from sys_roles_menus rm join sys_users_roles ur on ur.role_id = rm.role_id where ur.user_id = ?) order by menu_sort, id`,
);

const server = http.createServer((request, response) => {
  const session = sessionOf(request.headers.authorization);
  if (session === undefined) {
    response.writeHead(401).end();
    return;
  }
  const rows = (session.is_admin === 1 ? allMenus.all() : menusOfUser.all(session.user_id)) as RouteMenuRow[];
  const body = JSON.stringify(routesOf(rows));
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  response.end(body);
});
server.listen(0, '127.0.0.1', () => announceReady(server));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
