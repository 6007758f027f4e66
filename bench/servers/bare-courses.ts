// The reference for GET api/courses?page=&size=: bare node:http doing the same essential work as
// the product — check the token and the session, read one page of courses with their category's
// and owner's names and their chapter, lesson and term counts, and how many courses there are,
// from the same SQLite database with prepared statements, write the same JSON — with no
// framework, no query builder, no schemas, no hooks. Only the administrator's view: any other
// caller is refused rather than filtered by permission.
import http from 'node:http';
import path from 'node:path';
import { formatDateTime } from '@cloud-classroom/shared/display';
import Database from 'better-sqlite3';
import { announceReady } from './announce-ready.js';
import { bareSessionCheck } from './bare-session.js';

const dataDir = process.env.DATA_DIR;
if (dataDir === undefined) throw new Error('DATA_DIR is not set');
const db = new Database(path.join(dataDir, 'cloud-classroom.sqlite'));
const sessionOf = bareSessionCheck(db);

type CourseRow = {
  id: number;
  title: string;
  category_id: number | null;
  category_name: string | null;
  status: string;
  required: number;
  cover_media_id: number | null;
  summary: string;
  description: string;
  owner_id: number | null;
  owner_name: string | null;
  max_playback_rate: number;
  allow_skip: number;
  chapter_count: number;
  lesson_count: number;
  term_count: number;
  create_by: string | null;
  update_by: string | null;
  create_time: number;
  update_time: number;
};

const coursePage = db.prepare(
  `select c.*, cat.name as category_name, owner.nick_name as owner_name,
     (select count(*) from edu_chapter ch where ch.course_id = c.id) as chapter_count,
     (select count(*) from edu_lesson l where l.course_id = c.id) as lesson_count,
     (select count(*) from edu_term t where t.course_id = c.id) as term_count
   from edu_course c
   left join edu_category cat on cat.id = c.category_id
   left join sys_user owner on owner.id = c.owner_id
   order by c.id desc limit ? offset ?`,
);
const courseCount = db.prepare('select count(*) as n from edu_course').pluck();

const server = http.createServer((request, response) => {
  const session = sessionOf(request.headers.authorization);
  if (session === undefined || session.is_admin !== 1) {
    response.writeHead(session === undefined ? 401 : 403).end();
    return;
  }
  const query = new URLSearchParams(request.url?.split('?')[1]);
  const size = Number(query.get('size') ?? 10);
  const page = Number(query.get('page') ?? 0);
  const rows = coursePage.all(size, page * size) as CourseRow[];
  const body = JSON.stringify({
    content: rows.map((row) => ({
      id: row.id,
      title: row.title,
      categoryId: row.category_id,
      categoryName: row.category_name,
      status: row.status,
      required: row.required === 1,
      cover: row.cover_media_id,
      summary: row.summary,
      description: row.description,
      ownerId: row.owner_id,
      ownerName: row.owner_name,
      maxPlaybackRate: row.max_playback_rate,
      allowSkip: row.allow_skip === 1,
      chapterCount: row.chapter_count,
      lessonCount: row.lesson_count,
      termCount: row.term_count,
      createBy: row.create_by,
      updateBy: row.update_by,
      createTime: formatDateTime(row.create_time),
      updateTime: formatDateTime(row.update_time),
    })),
    totalElements: courseCount.get() as number,
  });
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  response.end(body);
});
server.listen(0, '127.0.0.1', () => announceReady(server));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
