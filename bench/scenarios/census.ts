import path from 'node:path';
import Database from 'better-sqlite3';
import { adminSession } from '../admin-session.js';
import type { ThroughputScenario } from '../scenario.js';

// The census list (issue 15) of an organisation of 10,000 people, each enrolled in 20 courses,
// with a month of study days, a few exam attempts, a certificate and logins: the page of 20 the
// list opens on, with every figure, against a bare reference reading the same tables.

const PEOPLE = 10_000;
const COURSES = 20;
const STUDY_DAYS = 30;
const DAY_MS = 86_400_000;
const PATH = '/api/census/users?page=0&size=20';

/** Days yyyy-MM-dd before 2026-03-01. */
const dayBefore = (count: number) => new Date(Date.UTC(2026, 2, 1) - count * DAY_MS).toISOString().slice(0, 10);

/**
 * Everything written straight to the product's database in one transaction (the API would take
 * hours for 200,000 enrolments), as the writers leave it: the enrolments, and the census rows the
 * census module keeps of them; study days; attempts of two exams; certificates; logins.
 */
function organisation(dataDir: string): void {
  const db = new Database(path.join(dataDir, 'cloud-classroom.sqlite'));
  db.pragma('busy_timeout = 10000');
  try {
    const now = Date.UTC(2026, 2, 1, 8);
    const { id: deptId } = db.prepare('select id from sys_dept order by id limit 1').get() as { id: number };
    const { id: roleId } = db.prepare("select id from sys_role where name = 'learner'").get() as { id: number };
    const insertUser = db.prepare(
      `insert into sys_user (dept_id, username, nick_name, gender, phone, email, avatar_name, password_hash, is_admin, enabled, pwd_reset_time, create_by, update_by, create_time, update_time)
       values (?, ?, ?, null, null, null, null, 'no-login', 0, 1, null, 'bench', 'bench', ?, ?)`,
    );
    const insertRole = db.prepare('insert into sys_users_roles (user_id, role_id) values (?, ?)');
    const insertCourse = db.prepare(
      `insert into edu_course (title, category_id, status, required, cover_media_id, summary, description, owner_id, max_playback_rate, allow_skip, create_by, update_by, create_time, update_time)
       values (?, null, 'published', 0, null, '', '', null, 1, 0, 'bench', 'bench', ?, ?)`,
    );
    const insertTerm = db.prepare(
      `insert into edu_term (course_id, name, start_at, end_at, capacity, enrol_mode, create_by, update_by, create_time, update_time)
       values (?, '2026 春季', ?, ?, null, 'assigned', 'bench', 'bench', ?, ?)`,
    );
    const insertApplicant = db.prepare(
      `insert into edu_applicant (term_id, user_id, status, source, due_at, reason, rule_id, completed_at, create_by, update_by, create_time, update_time)
       values (?, ?, ?, 'rule', null, null, null, ?, 'bench', 'bench', ?, ?)`,
    );
    const insertCensus = db.prepare(
      `insert into edu_census_course (user_id, course_id, status, enrolled_at, completed_at, completed_lessons, updated_at) values (?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertDay = db.prepare('insert into edu_study_day (user_id, day, seconds) values (?, ?, ?)');
    const insertExam = db.prepare(
      `insert into edu_exam (title, course_id, term_id, status, description, paper, total_score, question_count, open_at, close_at, limit_minutes, attempts, counts, pass_score,
         shuffle_questions, shuffle_options, review, create_by, update_by, create_time, update_time)
       values (?, null, null, 'published', '', '{"sections":[]}', 100, 0, null, null, null, 3, 'best', 60, 0, 0, 'never', 'bench', 'bench', ?, ?)`,
    );
    const insertAttempt = db.prepare(
      `insert into edu_attempt (exam_id, user_id, number, state, started_at, deadline, submitted_at, submitted_by, score, passed, paper, ip, agent, update_time)
       values (?, ?, ?, 'graded', ?, null, ?, 'learner', ?, ?, '{}', '127.0.0.1', 'bench', ?)`,
    );
    const insertCertificate = db.prepare(
      `insert into edu_certificate (template_id, template_version_id, user_id, number, code, snapshot, holder_name, title, source, exam_id, term_id, issued_at, expires_at,
         revoked_at, revoked_by, revoke_reason, superseded_by, superseded_at, supersedes, create_by, create_time, rule_id)
       values (1, 1, ?, ?, ?, '{}', ?, '安全生产证书', 'exam', ?, null, ?, null, null, null, null, null, null, null, 'bench', ?, null)`,
    );
    const insertLogin = db.prepare('insert into edu_census_login (user_id, at, ip, browser) values (?, ?, ?, ?)');
    db.transaction(() => {
      const terms: { courseId: number; termId: number }[] = [];
      for (let c = 1; c <= COURSES; c += 1) {
        const courseId = Number(insertCourse.run(`课程 ${c}`, now, now).lastInsertRowid);
        terms.push({ courseId, termId: Number(insertTerm.run(courseId, now - 60 * DAY_MS, now + 60 * DAY_MS, now, now).lastInsertRowid) });
      }
      const exams = [Number(insertExam.run('安全考试', now, now).lastInsertRowid), Number(insertExam.run('合规考试', now, now).lastInsertRowid)];
      for (let n = 0; n < PEOPLE; n += 1) {
        const userId = Number(insertUser.run(deptId, `learner${String(n).padStart(5, '0')}`, `学员 ${n}`, now, now).lastInsertRowid);
        insertRole.run(userId, roleId);
        for (const [index, { courseId, termId }] of terms.entries()) {
          // A third done, a third under way, a third not started.
          const status = (n + index) % 3 === 0 ? 'completed' : (n + index) % 3 === 1 ? 'in_progress' : 'approved';
          const enrolledAt = now - 50 * DAY_MS + index * 1000;
          const completedAt = status === 'completed' ? now - (n % 40) * DAY_MS : null;
          insertApplicant.run(termId, userId, status, completedAt, enrolledAt, enrolledAt);
          insertCensus.run(userId, courseId, status, enrolledAt, completedAt, status === 'completed' ? 5 : status === 'in_progress' ? 2 : 0, now);
        }
        for (let d = 0; d < STUDY_DAYS; d += 1) if ((n + d) % 4 !== 0) insertDay.run(userId, dayBefore(d), 300 + ((n * 7 + d * 13) % 1800));
        for (const [index, examId] of exams.entries()) {
          if ((n + index) % 2 === 0) continue;
          const startedAt = now - ((n + index) % 20) * DAY_MS;
          const score = 40 + ((n * 3 + index * 17) % 60);
          insertAttempt.run(examId, userId, 1, startedAt, startedAt + 1_800_000, score, score >= 60 ? 1 : 0, startedAt);
        }
        if (n % 3 !== 0) insertCertificate.run(userId, `CC-2026-${String(n).padStart(6, '0')}`, `bench${String(n).padStart(7, '0')}`, `学员 ${n}`, exams[0], now - (n % 30) * DAY_MS, now);
        for (let l = 0; l < 3; l += 1) insertLogin.run(userId, now - (n % 10) * DAY_MS - l * 3_600_000, '10.0.0.1', 'Chrome 120');
      }
    })();
  } finally {
    db.close();
  }
}

async function prepare(baseUrl: string, env: Record<string, string>): Promise<Record<string, string>> {
  const dataDir = env.DATA_DIR;
  if (dataDir === undefined) throw new Error('bench: the census scenario needs the data folder shared (shareData)');
  const headers = await adminSession(baseUrl);
  organisation(dataDir);
  return headers;
}

export const censusList: ThroughputScenario = {
  kind: 'throughput',
  name: 'authenticated GET api/census/users, a page of 20 of 10,000 people × 20 courses with every figure',
  target: 0.6,
  subject: { server: 'servers/app-server.ts', path: PATH, prepare },
  reference: { server: 'servers/bare-census.ts', path: PATH },
  shareData: true,
  sameAnswer: true,
};
