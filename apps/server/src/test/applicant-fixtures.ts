import { applicantSchema, type Applicant } from '@cloud-classroom/shared/applicants';
import { pageOf, type Page } from '@cloud-classroom/shared/http';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { db } from './course-fixtures.js';
import { call } from './test-app.js';

// What the enrolment tests share: people made straight in the database (able to log in with the
// test password), the applicants list read through the API, and a term's rows as stored.

let made = 0;

/** New users who log in with the test password (learner1's hash), in learner1's department unless told. */
export async function insertPeople(app: FastifyInstance, count: number, deptId?: number): Promise<{ id: number; username: string }[]> {
  const learner = await db(app).selectFrom('sys_user').selectAll().where('username', '=', 'learner1').executeTakeFirstOrThrow();
  const people: { id: number; username: string }[] = [];
  for (let index = 0; index < count; index += 1) {
    made += 1;
    const username = `person${made}`;
    const { id } = await db(app)
      .insertInto('sys_user')
      .values({
        dept_id: deptId ?? learner.dept_id,
        username,
        nick_name: `Person ${made}`,
        gender: null,
        phone: null,
        email: null,
        avatar_name: null,
        password_hash: learner.password_hash,
        is_admin: 0,
        enabled: 1,
        pwd_reset_time: 0,
        create_by: 'admin',
        update_by: 'admin',
        create_time: 0,
        update_time: 0,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    people.push({ id, username });
  }
  return people;
}

export async function listApplicants(app: FastifyInstance, token: string, query: string): Promise<Page<Applicant>> {
  const response = await call(app, 'GET', `/api/applicants${query}`, token);
  expect(response.statusCode, response.body).toBe(200);
  return pageOf(applicantSchema).parse(response.json());
}

/** The term's rows as stored, by username, in username order. */
export async function termRows(app: FastifyInstance, termId: number) {
  return db(app)
    .selectFrom('edu_applicant as a')
    .innerJoin('sys_user as u', 'u.id', 'a.user_id')
    .select(['u.username', 'a.status', 'a.source', 'a.rule_id', 'a.due_at', 'a.reason', 'a.completed_at'])
    .where('a.term_id', '=', termId)
    .orderBy('u.username')
    .execute();
}

export async function deptId(app: FastifyInstance, name: string): Promise<number> {
  return (await db(app).selectFrom('sys_dept').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
}

export async function roleId(app: FastifyInstance, name: string): Promise<number> {
  return (await db(app).selectFrom('sys_role').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
}

