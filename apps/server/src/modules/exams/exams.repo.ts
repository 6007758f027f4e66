import { formatDateTime } from '@cloud-classroom/shared/display';
import type {
  EXAM_SORT_FIELDS,
  Exam,
  ExamAssignee,
  ExamCounts,
  ExamReview,
  ExamStatus,
  Paper,
} from '@cloud-classroom/shared/exams';
import type { Page, SortOrder } from '@cloud-classroom/shared/http';
import type { Kysely } from 'kysely';
import { changed, created } from '../../db/audit-columns.js';
import { contains } from '../../db/list-filters.js';
import { paginate, type Ordering } from '../../db/paginate.js';
import type { Database } from '../../db/schema.js';

const time = (at: number | null) => (at === null ? null : formatDateTime(at));
const flag = (value: boolean) => (value ? (1 as const) : (0 as const));

// ---- Exams --------------------------------------------------------------------------------------

export type ExamFilter = {
  q?: string | undefined;
  courseId?: number | undefined;
  status?: ExamStatus | undefined;
  ids?: readonly number[] | undefined;
};

type ExamSortField = (typeof EXAM_SORT_FIELDS)[number];

const ORDERING: Ordering<ExamSortField> = {
  sortable: {
    id: 'e.id',
    title: 'e.title',
    status: 'e.status',
    openAt: 'e.open_at',
    closeAt: 'e.close_at',
    createTime: 'e.create_time',
    updateTime: 'e.update_time',
  },
  nullable: ['openAt', 'closeAt'],
  tiebreak: [['e.id', 'desc']],
};

function filteredExams(db: Kysely<Database>, filter: ExamFilter) {
  let query = db.selectFrom('edu_exam as e');
  if (filter.q) query = query.where(contains(['e.title'], filter.q));
  if (filter.courseId !== undefined) query = query.where('e.course_id', '=', filter.courseId);
  if (filter.status !== undefined) query = query.where('e.status', '=', filter.status);
  if (filter.ids) query = query.where('e.id', 'in', filter.ids.length > 0 ? filter.ids : [-1]);
  return query;
}

/** The matching exams with their course's title, their term's name and how many people are assigned each. */
export async function findExams(
  db: Kysely<Database>,
  filter: ExamFilter,
  page: { page?: number; size?: number; sort?: readonly SortOrder[] } = {},
): Promise<Page<Exam>> {
  const { content, totalElements } = await paginate(
    filteredExams(db, filter),
    (query) =>
      query
        .leftJoin('edu_course as c', 'c.id', 'e.course_id')
        .leftJoin('edu_term as t', 't.id', 'e.term_id')
        .selectAll('e')
        .select(['c.title as course_title', 't.name as term_name'])
        .select((eb) =>
          eb
            .selectFrom('edu_exam_assignee as a')
            .select((count) => count.fn.countAll().as('n'))
            .whereRef('a.exam_id', '=', 'e.id')
            .as('assignee_count'),
        ),
    ORDERING,
    page,
  );
  return {
    totalElements,
    content: content.map((row) => ({
      id: row.id,
      title: row.title,
      courseId: row.course_id,
      courseTitle: row.course_title,
      termId: row.term_id,
      termName: row.term_name,
      // Written only from the shared enums, and the paper only once validated.
      status: row.status as ExamStatus,
      description: row.description,
      paper: parsePaper(row.paper),
      openAt: time(row.open_at),
      closeAt: time(row.close_at),
      limitMinutes: row.limit_minutes,
      attempts: row.attempts,
      counts: row.counts as ExamCounts,
      passScore: row.pass_score,
      totalScore: row.total_score,
      questionCount: row.question_count,
      shuffleQuestions: row.shuffle_questions === 1,
      shuffleOptions: row.shuffle_options === 1,
      review: row.review as ExamReview,
      assigneeCount: Number(row.assignee_count),
      createBy: row.create_by,
      updateBy: row.update_by,
      createTime: formatDateTime(row.create_time),
      updateTime: formatDateTime(row.update_time),
    })),
  };
}

/** The paper as stored: JSON written only by this module, after validation. */
const parsePaper = (text: string): Paper => JSON.parse(text) as Paper;

/** What the preview and the learner's list need of an exam. */
export type ExamHead = {
  id: number;
  title: string;
  description: string;
  paper: Paper;
  limitMinutes: number | null;
  totalScore: number;
  passScore: number;
  shuffleQuestions: boolean;
  shuffleOptions: boolean;
};

export async function findExamHead(db: Kysely<Database>, id: number): Promise<ExamHead | undefined> {
  const row = await db.selectFrom('edu_exam').selectAll().where('id', '=', id).executeTakeFirst();
  return (
    row && {
      id: row.id,
      title: row.title,
      description: row.description,
      paper: parsePaper(row.paper),
      limitMinutes: row.limit_minutes,
      totalScore: row.total_score,
      passScore: row.pass_score,
      shuffleQuestions: row.shuffle_questions === 1,
      shuffleOptions: row.shuffle_options === 1,
    }
  );
}

export async function findExamIds(db: Kysely<Database>, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  return new Set((await db.selectFrom('edu_exam').select('id').where('id', 'in', ids).execute()).map((row) => row.id));
}

export type ExamValues = {
  title: string;
  courseId: number | null;
  termId: number | null;
  status: ExamStatus;
  description: string;
  paper: Paper;
  totalScore: number;
  questionCount: number;
  openAt: number | null;
  closeAt: number | null;
  limitMinutes: number | null;
  attempts: number;
  counts: ExamCounts;
  passScore: number;
  shuffleQuestions: boolean;
  shuffleOptions: boolean;
  review: ExamReview;
};

function examColumns(exam: ExamValues) {
  return {
    title: exam.title,
    course_id: exam.courseId,
    term_id: exam.termId,
    status: exam.status,
    description: exam.description,
    paper: JSON.stringify(exam.paper),
    total_score: exam.totalScore,
    question_count: exam.questionCount,
    open_at: exam.openAt,
    close_at: exam.closeAt,
    limit_minutes: exam.limitMinutes,
    attempts: exam.attempts,
    counts: exam.counts,
    pass_score: exam.passScore,
    shuffle_questions: flag(exam.shuffleQuestions),
    shuffle_options: flag(exam.shuffleOptions),
    review: exam.review,
  };
}

export async function insertExam(db: Kysely<Database>, exam: ExamValues, by: string, now: number): Promise<number> {
  const { id } = await db
    .insertInto('edu_exam')
    .values({ ...examColumns(exam), ...created(by, now) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateExam(db: Kysely<Database>, id: number, exam: ExamValues, by: string, now: number): Promise<void> {
  await db
    .updateTable('edu_exam')
    .set({ ...examColumns(exam), ...changed(by, now) })
    .where('id', '=', id)
    .execute();
}

/** The exam's fixed-question rows become exactly these questions. */
export async function setExamQuestions(db: Kysely<Database>, examId: number, questionIds: readonly number[]): Promise<void> {
  const current = new Set(
    (await db.selectFrom('edu_exam_question').select('question_id').where('exam_id', '=', examId).execute()).map((row) => row.question_id),
  );
  const wanted = new Set(questionIds);
  const gone = [...current].filter((id) => !wanted.has(id));
  const fresh = [...wanted].filter((id) => !current.has(id));
  if (gone.length > 0) await db.deleteFrom('edu_exam_question').where('exam_id', '=', examId).where('question_id', 'in', gone).execute();
  if (fresh.length > 0) {
    await db
      .insertInto('edu_exam_question')
      .values(fresh.map((questionId) => ({ exam_id: examId, question_id: questionId })))
      .execute();
  }
}

/** Deletes the exams with their fixed-question rows, their assignees and their assignment rules. */
export async function deleteExams(db: Kysely<Database>, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('edu_exam_assignee').where('exam_id', 'in', ids).execute();
  await db.deleteFrom('edu_assignment_rule').where('exam_id', 'in', ids).execute();
  await db.deleteFrom('edu_exam_question').where('exam_id', 'in', ids).execute();
  await db.deleteFrom('edu_exam').where('id', 'in', ids).execute();
}

/** The titles of those of these exams that people have attempted. */
export async function findExamsAttempted(db: Kysely<Database>, ids: readonly number[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('edu_exam as e')
    .select('e.title')
    .where('e.id', 'in', ids)
    .where((eb) => eb.exists(eb.selectFrom('edu_attempt as a').select('a.id').whereRef('a.exam_id', '=', 'e.id')))
    .orderBy('e.id')
    .execute();
  return rows.map((row) => row.title);
}

export async function findCourseExists(db: Kysely<Database>, id: number): Promise<boolean> {
  return (await db.selectFrom('edu_course').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

export async function findTermCourse(db: Kysely<Database>, termId: number): Promise<number | undefined> {
  return (await db.selectFrom('edu_term').select('course_id').where('id', '=', termId).executeTakeFirst())?.course_id;
}

// ---- Assignees ----------------------------------------------------------------------------------

export type AssigneeFilter = {
  examId: number;
  /** Part of the username or nick name. */
  q?: string | undefined;
  /** Only people in these departments (a data scope); undefined: everyone. */
  deptIds?: readonly number[] | undefined;
  /** Only those whose due date is before this moment and who have passed no attempt of the exam. */
  overdueAt?: number | undefined;
};

const ASSIGNEE_ORDERING: Ordering<'id' | 'createTime'> = {
  sortable: { id: 'a.id', createTime: 'a.create_time' },
  tiebreak: [['a.id', 'desc']],
};

function filteredAssignees(db: Kysely<Database>, filter: AssigneeFilter) {
  let query = db.selectFrom('edu_exam_assignee as a').innerJoin('sys_user as u', 'u.id', 'a.user_id').where('a.exam_id', '=', filter.examId);
  if (filter.q) query = query.where(contains(['u.username', 'u.nick_name'], filter.q));
  if (filter.deptIds !== undefined) query = query.where('u.dept_id', 'in', filter.deptIds.length > 0 ? filter.deptIds : [-1]);
  if (filter.overdueAt !== undefined) {
    query = query
      .where('a.due_at', 'is not', null)
      .where('a.due_at', '<', filter.overdueAt)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('edu_attempt as t').select('t.id').whereRef('t.exam_id', '=', 'a.exam_id').whereRef('t.user_id', '=', 'a.user_id').where('t.passed', '=', 1))),
      );
  }
  return query;
}

export async function findAssignees(
  db: Kysely<Database>,
  filter: AssigneeFilter,
  page: { page?: number; size?: number; sort?: readonly SortOrder[] } = {},
): Promise<Page<ExamAssignee>> {
  const { content, totalElements } = await paginate(
    filteredAssignees(db, filter),
    (query) =>
      query
        .leftJoin('sys_dept as d', 'd.id', 'u.dept_id')
        .selectAll('a')
        .select(['u.username', 'u.nick_name', 'd.name as dept_name']),
    ASSIGNEE_ORDERING,
    page,
  );
  return {
    totalElements,
    content: content.map((row) => ({
      id: row.id,
      userId: row.user_id,
      username: row.username,
      nickName: row.nick_name,
      deptName: row.dept_name,
      source: row.source as 'staff' | 'rule',
      ruleId: row.rule_id,
      dueAt: time(row.due_at),
      extraMinutes: row.extra_minutes,
      extraAttempts: row.extra_attempts,
      openAt: time(row.open_at),
      closeAt: time(row.close_at),
      createTime: formatDateTime(row.create_time),
    })),
  };
}

export type AssigneeHead = { id: number; userId: number; deptId: number | null; username: string; source: string; ruleId: number | null };

/** The exam's assignee rows among these ids, by id. */
export async function findAssigneeHeads(db: Kysely<Database>, examId: number, ids: readonly number[]): Promise<Map<number, AssigneeHead>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('edu_exam_assignee as a')
    .innerJoin('sys_user as u', 'u.id', 'a.user_id')
    .select(['a.id', 'a.user_id', 'u.dept_id', 'u.username', 'a.source', 'a.rule_id'])
    .where('a.exam_id', '=', examId)
    .where('a.id', 'in', ids)
    .execute();
  return new Map(rows.map((row) => [row.id, { id: row.id, userId: row.user_id, deptId: row.dept_id, username: row.username, source: row.source, ruleId: row.rule_id }]));
}

/** The exam's assignee rows of these people, by user id. */
export async function findAssigneesOfUsers(
  db: Kysely<Database>,
  examId: number,
  userIds: readonly number[],
): Promise<Map<number, { id: number; source: string; ruleId: number | null }>> {
  const found = new Map<number, { id: number; source: string; ruleId: number | null }>();
  for (const slice of slices(userIds)) {
    const rows = await db
      .selectFrom('edu_exam_assignee')
      .select(['id', 'user_id', 'source', 'rule_id'])
      .where('exam_id', '=', examId)
      .where('user_id', 'in', slice)
      .execute();
    for (const row of rows) found.set(row.user_id, { id: row.id, source: row.source, ruleId: row.rule_id });
  }
  return found;
}

export type NewAssignee = { examId: number; userId: number; source: 'staff' | 'rule'; ruleId: number | null; dueAt: number | null };

export async function insertAssignees(db: Kysely<Database>, assignees: readonly NewAssignee[], by: string, now: number): Promise<void> {
  for (const slice of slices(assignees)) {
    await db
      .insertInto('edu_exam_assignee')
      .values(
        slice.map((assignee) => ({
          exam_id: assignee.examId,
          user_id: assignee.userId,
          source: assignee.source,
          rule_id: assignee.ruleId,
          due_at: assignee.dueAt,
          extra_minutes: 0,
          extra_attempts: 0,
          open_at: null,
          close_at: null,
          create_by: by,
          create_time: now,
          update_time: now,
        })),
      )
      .execute();
  }
}

/** Rows a rule made that staff have now named too: they stay when the rule goes. */
export async function markAssigneesStaff(db: Kysely<Database>, ids: readonly number[], now: number): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('edu_exam_assignee').set({ source: 'staff', rule_id: null, update_time: now }).where('id', 'in', ids).execute();
}

export type AssigneeOverrides = { extraMinutes: number; extraAttempts: number; openAt: number | null; closeAt: number | null; dueAt: number | null };

export async function updateAssigneeOverrides(db: Kysely<Database>, ids: readonly number[], overrides: AssigneeOverrides, now: number): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('edu_exam_assignee')
    .set({
      extra_minutes: overrides.extraMinutes,
      extra_attempts: overrides.extraAttempts,
      open_at: overrides.openAt,
      close_at: overrides.closeAt,
      due_at: overrides.dueAt,
      update_time: now,
    })
    .where('id', 'in', ids)
    .execute();
}

export async function deleteAssignees(db: Kysely<Database>, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('edu_exam_assignee').where('id', 'in', ids).execute();
}

export async function deleteAssigneesOfPeople(db: Kysely<Database>, userIds: readonly number[]): Promise<void> {
  if (userIds.length === 0) return;
  await db.deleteFrom('edu_exam_assignee').where('user_id', 'in', userIds).execute();
}

/** Rows made by these rules, with source `rule`: to be moved to another rule covering them, or deleted. */
export async function findRuleMadeAssignees(db: Kysely<Database>, ruleIds: readonly number[]): Promise<{ id: number; examId: number; userId: number }[]> {
  if (ruleIds.length === 0) return [];
  const rows = await db
    .selectFrom('edu_exam_assignee')
    .select(['id', 'exam_id', 'user_id'])
    .where('rule_id', 'in', ruleIds)
    .where('source', '=', 'rule')
    .execute();
  return rows.map((row) => ({ id: row.id, examId: row.exam_id, userId: row.user_id }));
}

export async function setAssigneeRule(db: Kysely<Database>, ids: readonly number[], ruleId: number, now: number): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('edu_exam_assignee').set({ rule_id: ruleId, update_time: now }).where('id', 'in', ids).execute();
}

// ---- Rules --------------------------------------------------------------------------------------

export type ExamRuleTarget = 'dept' | 'role' | 'term';

export type ExamRuleRow = {
  id: number;
  examId: number;
  target: ExamRuleTarget;
  ids: number[];
  dueAt: number | null;
  /** Its author's username: a rule reaches no further than its author's data scope. */
  createBy: string | null;
  createTime: number;
};

/** The exams' rules (all exams' when `examId` is not given), in id order. */
export async function findExamRules(db: Kysely<Database>, filter: { examId?: number; ids?: readonly number[] } = {}): Promise<ExamRuleRow[]> {
  let query = db
    .selectFrom('edu_assignment_rule')
    .select(['id', 'exam_id', 'target', 'target_ids', 'due_at', 'create_by', 'create_time'])
    .where('exam_id', 'is not', null);
  if (filter.examId !== undefined) query = query.where('exam_id', '=', filter.examId);
  if (filter.ids !== undefined) query = query.where('id', 'in', filter.ids.length > 0 ? filter.ids : [-1]);
  const rows = await query.orderBy('id').execute();
  return rows.map((row) => ({
    id: row.id,
    examId: row.exam_id as number,
    // Written only by this module, from 'dept' | 'role' | 'term'.
    target: row.target as ExamRuleTarget,
    ids: JSON.parse(row.target_ids) as number[],
    dueAt: row.due_at,
    createBy: row.create_by,
    createTime: row.create_time,
  }));
}

/** How many assignee rows each rule made. */
export async function countAssigneesByRule(db: Kysely<Database>, ruleIds: readonly number[]): Promise<Map<number, number>> {
  if (ruleIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('edu_exam_assignee')
    .select(['rule_id', (eb) => eb.fn.countAll().as('n')])
    .where('rule_id', 'in', ruleIds)
    .groupBy('rule_id')
    .execute();
  return new Map(rows.map((row) => [row.rule_id as number, Number(row.n)]));
}

export async function insertExamRule(
  db: Kysely<Database>,
  rule: { examId: number; target: ExamRuleTarget; ids: readonly number[]; dueAt: number | null },
  by: string,
  now: number,
): Promise<number> {
  const { id } = await db
    .insertInto('edu_assignment_rule')
    .values({ target: rule.target, target_ids: JSON.stringify([...new Set(rule.ids)]), term_id: null, exam_id: rule.examId, due_at: rule.dueAt, ...created(by, now) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function deleteExamRules(db: Kysely<Database>, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.deleteFrom('edu_assignment_rule').where('id', 'in', ids).where('exam_id', 'is not', null).execute();
}

/** Names of departments, roles or terms by id; ids naming nothing are absent. */
export async function findTargetNames(db: Kysely<Database>, target: ExamRuleTarget, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows =
    target === 'dept'
      ? await db.selectFrom('sys_dept').select(['id', 'name']).where('id', 'in', ids).execute()
      : target === 'role'
        ? await db.selectFrom('sys_role').select(['id', 'name']).where('id', 'in', ids).execute()
        : await db.selectFrom('edu_term').select(['id', 'name']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, row.name]));
}

// ---- Whom a rule covers -------------------------------------------------------------------------

/** The people of these departments (exactly these: the caller widens them to subtrees). */
export async function findUserIdsInDepts(db: Kysely<Database>, deptIds: readonly number[]): Promise<number[]> {
  if (deptIds.length === 0) return [];
  return (await db.selectFrom('sys_user').select('id').where('dept_id', 'in', deptIds).execute()).map((row) => row.id);
}

export async function findUserIdsWithRoles(db: Kysely<Database>, roleIds: readonly number[]): Promise<number[]> {
  if (roleIds.length === 0) return [];
  const rows = await db.selectFrom('sys_users_roles').select('user_id').distinct().where('role_id', 'in', roleIds).execute();
  return rows.map((row) => row.user_id);
}

/** The people enrolled in these terms (approved, studying or completed). */
export async function findUserIdsEnrolledIn(db: Kysely<Database>, termIds: readonly number[], enrolled: readonly string[]): Promise<number[]> {
  if (termIds.length === 0) return [];
  const rows = await db.selectFrom('edu_applicant').select('user_id').distinct().where('term_id', 'in', termIds).where('status', 'in', enrolled).execute();
  return rows.map((row) => row.user_id);
}

export type Membership = { userId: number; deptId: number | null; roleIds: number[]; termIds: number[] };

/** Each user's department, roles and the terms they are enrolled in, for matching them against the rules. */
export async function findMemberships(db: Kysely<Database>, userIds: readonly number[], enrolled: readonly string[]): Promise<Membership[]> {
  if (userIds.length === 0) return [];
  const users = await db.selectFrom('sys_user').select(['id', 'dept_id']).where('id', 'in', userIds).execute();
  const roles = await db.selectFrom('sys_users_roles').select(['user_id', 'role_id']).where('user_id', 'in', userIds).execute();
  const terms = await db.selectFrom('edu_applicant').select(['user_id', 'term_id']).where('user_id', 'in', userIds).where('status', 'in', enrolled).execute();
  return users.map((user) => ({
    userId: user.id,
    deptId: user.dept_id,
    roleIds: roles.filter((role) => role.user_id === user.id).map((role) => role.role_id),
    termIds: terms.filter((term) => term.user_id === user.id).map((term) => term.term_id),
  }));
}

/** People by id with their department, for the data-scope check; ids naming nobody are absent. */
export async function findPeople(db: Kysely<Database>, ids: readonly number[]): Promise<Map<number, { id: number; username: string; deptId: number | null }>> {
  const found = new Map<number, { id: number; username: string; deptId: number | null }>();
  for (const slice of slices(ids)) {
    const rows = await db.selectFrom('sys_user').select(['id', 'username', 'dept_id']).where('id', 'in', slice).execute();
    for (const row of rows) found.set(row.id, { id: row.id, username: row.username, deptId: row.dept_id });
  }
  return found;
}

// ---- The learner's exams ------------------------------------------------------------------------

export type MyExamRow = {
  id: number;
  title: string;
  description: string;
  courseId: number | null;
  courseTitle: string | null;
  openAt: number | null;
  closeAt: number | null;
  limitMinutes: number | null;
  attempts: number;
  totalScore: number;
  passScore: number;
  questionCount: number;
  dueAt: number | null;
  extraMinutes: number;
  extraAttempts: number;
  myOpenAt: number | null;
  myCloseAt: number | null;
  counts: ExamCounts;
  review: ExamReview;
  shuffleOptions: boolean;
};

/** What a person's view of an exam reads: the exam with their assignment's overrides. */
const MY_EXAM_COLUMNS = [
  'e.id',
  'e.title',
  'e.description',
  'e.course_id',
  'c.title as course_title',
  'e.open_at',
  'e.close_at',
  'e.limit_minutes',
  'e.attempts',
  'e.total_score',
  'e.pass_score',
  'e.question_count',
  'a.due_at',
  'a.extra_minutes',
  'a.extra_attempts',
  'a.open_at as my_open_at',
  'a.close_at as my_close_at',
  'e.counts',
  'e.review',
  'e.shuffle_options',
] as const;

/** The published exams assigned to the user (of a course, or one exam), with their assignee row's overrides. */
export async function findMyExams(db: Kysely<Database>, userId: number, filter: { courseId?: number | undefined; examId?: number }): Promise<MyExamRow[]> {
  let query = db
    .selectFrom('edu_exam_assignee as a')
    .innerJoin('edu_exam as e', 'e.id', 'a.exam_id')
    .leftJoin('edu_course as c', 'c.id', 'e.course_id')
    .select(MY_EXAM_COLUMNS)
    .where('a.user_id', '=', userId)
    .where('e.status', '=', 'published');
  if (filter.courseId !== undefined) query = query.where('e.course_id', '=', filter.courseId);
  if (filter.examId !== undefined) query = query.where('e.id', '=', filter.examId);
  const rows = await query.orderBy('e.id', 'desc').execute();
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    description: row.description,
    courseId: row.course_id,
    courseTitle: row.course_title,
    openAt: row.open_at,
    closeAt: row.close_at,
    limitMinutes: row.limit_minutes,
    attempts: row.attempts,
    totalScore: row.total_score,
    passScore: row.pass_score,
    questionCount: row.question_count,
    dueAt: row.due_at,
    extraMinutes: row.extra_minutes,
    extraAttempts: row.extra_attempts,
    myOpenAt: row.my_open_at,
    myCloseAt: row.my_close_at,
    // Written only from the shared enums.
    counts: row.counts as ExamCounts,
    review: row.review as ExamReview,
    shuffleOptions: row.shuffle_options === 1,
  }));
}

/**
 * The exam as `findMyExams` gives it, whether or not it is published or assigned to the user
 * (their overrides when it is): what an attempt already made needs of it.
 */
export async function findExamForPerson(db: Kysely<Database>, userId: number, examId: number): Promise<MyExamRow | undefined> {
  const row = await db
    .selectFrom('edu_exam as e')
    .leftJoin('edu_exam_assignee as a', (join) => join.onRef('a.exam_id', '=', 'e.id').on('a.user_id', '=', userId))
    .leftJoin('edu_course as c', 'c.id', 'e.course_id')
    .select(MY_EXAM_COLUMNS)
    .where('e.id', '=', examId)
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      title: row.title,
      description: row.description,
      courseId: row.course_id,
      courseTitle: row.course_title,
      openAt: row.open_at,
      closeAt: row.close_at,
      limitMinutes: row.limit_minutes,
      attempts: row.attempts,
      totalScore: row.total_score,
      passScore: row.pass_score,
      questionCount: row.question_count,
      dueAt: row.due_at,
      extraMinutes: row.extra_minutes ?? 0,
      extraAttempts: row.extra_attempts ?? 0,
      myOpenAt: row.my_open_at,
      myCloseAt: row.my_close_at,
      counts: row.counts as ExamCounts,
      review: row.review as ExamReview,
      shuffleOptions: row.shuffle_options === 1,
    }
  );
}

/** The exam's own close and the latest personal one among its assignees (null: none set); undefined when there is no such exam. */
export async function findCloses(db: Kysely<Database>, examId: number): Promise<{ examCloseAt: number | null; latestPersonalCloseAt: number | null } | undefined> {
  const row = await db
    .selectFrom('edu_exam as e')
    .select((eb) => [
      'e.close_at',
      eb
        .selectFrom('edu_exam_assignee as a')
        .select((inner) => inner.fn.max('a.close_at').as('latest'))
        .whereRef('a.exam_id', '=', 'e.id')
        .as('latest_personal'),
    ])
    .where('e.id', '=', examId)
    .executeTakeFirst();
  const epoch = (at: number | string | bigint | null | undefined) => (at === null || at === undefined ? null : Number(at));
  return row && { examCloseAt: epoch(row.close_at), latestPersonalCloseAt: epoch(row.latest_personal) };
}

/** In slices: one statement's parameters are limited (SQLite's to 32766). */
function slices<T>(items: readonly T[], size = 500): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size));
  return out;
}
