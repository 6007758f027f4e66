// The reference for GET api/census/users?page=&size=: bare node:http doing the same essential
// work as the product — check the token and the session, read one page of people with their
// department and figures (study seconds, courses enrolled and completed, exams attempted and
// passed, certificates held, last login) from the same SQLite tables with prepared statements,
// count the people, write the same JSON — with no framework, no query builder, no schemas, no
// hooks. Only the administrator's view, with no filter: any other caller is refused.
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

type PersonRow = {
  id: number;
  username: string;
  nick_name: string;
  dept_id: number | null;
  dept_name: string | null;
  study_seconds: number;
  courses_enrolled: number;
  courses_completed: number;
  exams_attempted: number;
  exams_passed: number;
  certificates: number;
  last_login_at: number | null;
};

const personPage = db.prepare(
  `select u.id, u.username, u.nick_name, u.dept_id, d.name as dept_name,
     coalesce((select sum(s.seconds) from edu_study_day s where s.user_id = u.id), 0) as study_seconds,
     (select count(*) from edu_census_course c where c.user_id = u.id) as courses_enrolled,
     (select count(*) from edu_census_course c where c.user_id = u.id and c.completed_at is not null) as courses_completed,
     (select count(distinct a.exam_id) from edu_attempt a where a.user_id = u.id) as exams_attempted,
     (select count(distinct a.exam_id) from edu_attempt a where a.user_id = u.id and a.state = 'graded' and a.passed = 1) as exams_passed,
     (select count(*) from edu_certificate k where k.user_id = u.id and k.revoked_at is null and k.superseded_by is null) as certificates,
     (select max(l.at) from edu_census_login l where l.user_id = u.id) as last_login_at
   from sys_user u left join sys_dept d on d.id = u.dept_id
   order by u.id limit ? offset ?`,
);
const personCount = db.prepare('select count(*) as n from sys_user').pluck();

const server = http.createServer((request, response) => {
  const session = sessionOf(request.headers.authorization);
  if (session === undefined || session.is_admin !== 1) {
    response.writeHead(session === undefined ? 401 : 403).end();
    return;
  }
  const query = new URLSearchParams(request.url?.split('?')[1]);
  const size = Number(query.get('size') ?? 10);
  const page = Number(query.get('page') ?? 0);
  const rows = personPage.all(size, page * size) as PersonRow[];
  const body = JSON.stringify({
    content: rows.map((row) => ({
      userId: row.id,
      username: row.username,
      nickName: row.nick_name,
      deptId: row.dept_id,
      deptName: row.dept_name,
      studySeconds: row.study_seconds,
      coursesEnrolled: row.courses_enrolled,
      coursesCompleted: row.courses_completed,
      examsAttempted: row.exams_attempted,
      examsPassed: row.exams_passed,
      certificates: row.certificates,
      lastLoginAt: row.last_login_at === null ? null : formatDateTime(row.last_login_at),
    })),
    totalElements: personCount.get() as number,
  });
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  response.end(body);
});
server.listen(0, '127.0.0.1', () => announceReady(server));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
