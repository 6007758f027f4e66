import type { AssignmentRule, RuleTarget } from '@cloud-classroom/shared/applicants';
import { formatDateTime } from '@cloud-classroom/shared/display';
import type { Page, SortOrder } from '@cloud-classroom/shared/http';
import type { Kysely } from 'kysely';
import { changed, created } from '../../db/audit-columns.js';
import { paginate, type Ordering } from '../../db/paginate.js';
import type { Database } from '../../db/schema.js';

export type RuleFilter = { termId?: number | undefined; courseId?: number | undefined; ids?: readonly number[] | undefined };

const ORDERING: Ordering<'id' | 'createTime'> = {
  sortable: { id: 'r.id', createTime: 'r.create_time' },
  tiebreak: [['r.id', 'desc']],
};

function filtered(db: Kysely<Database>, filter: RuleFilter) {
  // The exams' rules (exam_id set) are the exams module's.
  let query = db.selectFrom('edu_assignment_rule as r').leftJoin('edu_term as t', 't.id', 'r.term_id').where('r.exam_id', 'is', null);
  if (filter.termId !== undefined) query = query.where('r.term_id', '=', filter.termId);
  if (filter.courseId !== undefined) query = query.where('t.course_id', '=', filter.courseId);
  if (filter.ids) query = query.where('r.id', 'in', filter.ids.length > 0 ? filter.ids : [-1]);
  return query;
}

/** The target ids as stored: a JSON array written only by this module. */
export const parseTargetIds = (text: string): number[] => JSON.parse(text) as number[];

/** The matching rules with their term's name and how many enrolments each has made; names and who is outside the caller's scope are the service's to add. */
export async function findRules(
  db: Kysely<Database>,
  filter: RuleFilter,
  page: { page?: number; size?: number; sort?: readonly SortOrder[] } = {},
): Promise<Page<Omit<AssignmentRule, 'names' | 'othersOutsideScope'>>> {
  const { content, totalElements } = await paginate(
    filtered(db, filter),
    (query) =>
      query
        .selectAll('r')
        .select('t.name as term_name')
        .select((eb) =>
          eb
            .selectFrom('edu_applicant as a')
            .select((count) => count.fn.countAll().as('n'))
            .whereRef('a.rule_id', '=', 'r.id')
            .as('applicant_count'),
        ),
    ORDERING,
    page,
  );
  return {
    totalElements,
    content: content.map((row) => ({
      id: row.id,
      // Written only from RULE_TARGETS.
      target: row.target as RuleTarget,
      ids: parseTargetIds(row.target_ids),
      termId: row.term_id,
      termName: row.term_name,
      examId: row.exam_id,
      dueAt: row.due_at === null ? null : formatDateTime(row.due_at),
      applicantCount: Number(row.applicant_count),
      createBy: row.create_by,
      updateBy: row.update_by,
      createTime: formatDateTime(row.create_time),
      updateTime: formatDateTime(row.update_time),
    })),
  };
}

/** Names of departments, roles or users by id; ids naming nothing are absent. */
export async function findTargetNames(db: Kysely<Database>, target: RuleTarget, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows =
    target === 'dept'
      ? await db.selectFrom('sys_dept').select(['id', 'name']).where('id', 'in', ids).execute()
      : target === 'role'
        ? await db.selectFrom('sys_role').select(['id', 'name']).where('id', 'in', ids).execute()
        : await db.selectFrom('sys_user').select(['id', 'nick_name as name']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** `author`: whoever last wrote the rule, whose data scope bounds it. */
export type RuleRow = { id: number; target: RuleTarget; ids: number[]; termId: number | null; dueAt: number | null; author: string | null };

/** Every rule that assigns a term (the ones for exams are the exams' business). */
export async function findTermRules(db: Kysely<Database>, ids?: readonly number[]): Promise<RuleRow[]> {
  let query = db.selectFrom('edu_assignment_rule').select(['id', 'target', 'target_ids', 'term_id', 'due_at', 'update_by']).where('term_id', 'is not', null);
  if (ids !== undefined) query = query.where('id', 'in', ids.length > 0 ? ids : [-1]);
  const rows = await query.orderBy('id').execute();
  return rows.map((row) => ({
    id: row.id,
    target: row.target as RuleTarget,
    ids: parseTargetIds(row.target_ids),
    termId: row.term_id,
    dueAt: row.due_at,
    author: row.update_by,
  }));
}

export async function findRuleIds(db: Kysely<Database>, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('edu_assignment_rule').select('id').where('id', 'in', ids).where('exam_id', 'is', null).execute();
  return new Set(rows.map((row) => row.id));
}

export type RuleValues = { target: RuleTarget; ids: readonly number[]; termId: number; dueAt: number | null };

function columnsOf(rule: RuleValues) {
  return { target: rule.target, target_ids: JSON.stringify([...new Set(rule.ids)]), term_id: rule.termId, exam_id: null, due_at: rule.dueAt };
}

export async function insertRule(db: Kysely<Database>, rule: RuleValues, by: string, now: number): Promise<number> {
  const { id } = await db
    .insertInto('edu_assignment_rule')
    .values({ ...columnsOf(rule), ...created(by, now) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateRule(db: Kysely<Database>, id: number, rule: RuleValues, by: string, now: number): Promise<void> {
  await db
    .updateTable('edu_assignment_rule')
    .set({ ...columnsOf(rule), ...changed(by, now) })
    .where('id', '=', id)
    .execute();
}

/** A new due date for the rule's enrolments in its term that are not done yet. */
/** Answers the ids of the enrolments given the date. */
export async function setRuleDueDate(db: Kysely<Database>, ruleId: number, termId: number, dueAt: number | null, by: string, now: number): Promise<number[]> {
  const rows = await db
    .updateTable('edu_applicant')
    .set({ due_at: dueAt, ...changed(by, now) })
    .where('rule_id', '=', ruleId)
    .where('term_id', '=', termId)
    .where('status', 'not in', ['completed', 'rejected'])
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

/** Deletes the rules; the enrolments they made stay, no longer linked to a rule. */
export async function deleteRules(db: Kysely<Database>, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('edu_applicant').set({ rule_id: null }).where('rule_id', 'in', ids).execute();
  await db.deleteFrom('edu_assignment_rule').where('id', 'in', ids).execute();
}

// ---- Whom a rule covers -------------------------------------------------------------------------

export async function findDeptLinks(db: Kysely<Database>): Promise<{ id: number; pid: number | null }[]> {
  return db.selectFrom('sys_dept').select(['id', 'pid']).execute();
}

/** The people of these departments (exactly these: the caller widens them to subtrees). */
export async function findUserIdsInDepts(db: Kysely<Database>, deptIds: readonly number[]): Promise<number[]> {
  if (deptIds.length === 0) return [];
  return (await db.selectFrom('sys_user').select('id').where('dept_id', 'in', deptIds).execute()).map((row) => row.id);
}

/** The holders of these roles; only those of `deptIds` when given (a data scope). */
export async function findUserIdsWithRoles(db: Kysely<Database>, roleIds: readonly number[], deptIds?: readonly number[]): Promise<number[]> {
  if (roleIds.length === 0) return [];
  const rows = await db
    .selectFrom('sys_users_roles as ur')
    .select('ur.user_id')
    .distinct()
    .where('ur.role_id', 'in', roleIds)
    .$if(deptIds !== undefined, (query) =>
      query.innerJoin('sys_user as u', 'u.id', 'ur.user_id').where('u.dept_id', 'in', deptIds !== undefined && deptIds.length > 0 ? deptIds : [-1]),
    )
    .execute();
  return rows.map((row) => row.user_id);
}

/** Each user's department and roles, for matching them against the rules. */
export async function findMemberships(db: Kysely<Database>, userIds: readonly number[]): Promise<{ userId: number; deptId: number | null; roleIds: number[] }[]> {
  if (userIds.length === 0) return [];
  const users = await db.selectFrom('sys_user').select(['id', 'dept_id']).where('id', 'in', userIds).execute();
  const roles = await db.selectFrom('sys_users_roles').select(['user_id', 'role_id']).where('user_id', 'in', userIds).execute();
  return users.map((user) => ({
    userId: user.id,
    deptId: user.dept_id,
    roleIds: roles.filter((role) => role.user_id === user.id).map((role) => role.role_id),
  }));
}
