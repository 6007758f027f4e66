import { DEFAULT_BLANK_RULES } from '@cloud-classroom/shared/question-scoring';
import { OPTION_KEYS, plainTextOf } from '@cloud-classroom/shared/questions';
import { descendantIds } from '@cloud-classroom/shared/tree';
import type { Transaction } from 'kysely';
import { stemKeyOf } from '../../modules/questions/stem-key.js';
import { created } from '../audit-columns.js';
import type { Database } from '../schema.js';
import { DEMO_QUESTIONS, DEMO_TYPE_SCORES, type DemoQuestion } from './demo-questions.js';

// The demo question bank and one exam on it, so the question bank, the exam editor and the
// learner's exams have something real: the fire-safety course's final exam, open since a few days
// (the demo's candidates sat it meanwhile: demo-attempts.ts), of a fixed section, a section drawn
// at random from the bank and two short answers a teacher marks, assigned to two learners by hand
// (learner1, whom the demo teacher marks, and learner2 of 市场部, outside the teacher's data scope)
// and to a department by a rule.

const DAY_MS = 86_400_000;

/** Draws from the fire-safety questions on extinguishers and escape; the bank has enough of each (a test checks). */
const DRAW_TAGS = ['灭火器', '火灾逃生'];

export const DEMO_EXAM = {
  title: '消防安全基础 结业考试',
  course: '消防安全基础',
  description: '共 15 题，满分 50 分，30 分及格。限时 30 分钟，可作答 2 次，取最高分。第二部分的题目随机抽取，每次作答都不同；第三部分为简答题，由老师阅卷后公布成绩。',
  /** Opened at the start of the day this many days ago, so the demo's attempts fall inside the window. */
  openedDaysAgo: 3,
  daysOpen: 30,
  limitMinutes: 30,
  attempts: 2,
  counts: 'best',
  /** Of the total score. */
  passShare: 0.6,
  shuffleQuestions: false,
  shuffleOptions: true,
  review: 'after_submit',
  sections: [
    /** The questions marked `inExam: 'required'`, 4 points each. */
    { title: '一、必答题', fixed: 'required', fixedScore: 4, draw: [] },
    {
      title: '二、随机抽题',
      fixed: null,
      fixedScore: null,
      draw: [
        { tags: DRAW_TAGS, type: 'single', difficulty: null, count: 4, score: 3 },
        { tags: DRAW_TAGS, type: 'judge', difficulty: null, count: 4, score: 2 },
      ],
    },
    /** The questions marked `inExam: 'short'`, 5 points each. */
    { title: '三、简答题', fixed: 'short', fixedScore: 5, draw: [] },
  ],
  staff: ['learner1', 'learner2'],
  rule: { depts: ['学员服务组'], dueInDays: 14 },
} as const;

/** The row of a demo question, without its audit columns. */
export function demoQuestionRow(question: DemoQuestion) {
  const stem = `<p>${question.stem}</p>`;
  return {
    type: question.type,
    stem,
    stem_text: plainTextOf(stem),
    stem_key: stemKeyOf(question.type, stem),
    options: JSON.stringify('options' in question ? question.options.map((text, index) => ({ key: OPTION_KEYS[index], text })) : []),
    answer: JSON.stringify(question.answer),
    blank_rules: question.type === 'blank' ? JSON.stringify({ ...DEFAULT_BLANK_RULES, ...question.blankRules }) : null,
    analysis: `<p>${question.analysis}</p>`,
    difficulty: question.difficulty,
    score: question.score ?? DEMO_TYPE_SCORES[question.type],
    policy: question.type === 'multiple' ? question.policy : null,
  };
}

/** Inserts the demo question bank and exam, answering the exam's id; inside the seed's transaction, after the demo catalogue. */
export async function insertDemoExams(trx: Transaction<Database>, now: number): Promise<number> {
  const audit = created('system', now);
  const tagIds = new Map<string, number>();
  for (const name of new Set(DEMO_QUESTIONS.flatMap((question) => question.tags))) {
    const { id } = await trx.insertInto('edu_tag').values({ name }).returning('id').executeTakeFirstOrThrow();
    tagIds.set(name, id);
  }
  const fixed = { required: [] as { id: number; score: number }[], short: [] as { id: number; score: number }[] };
  for (const question of DEMO_QUESTIONS) {
    const row = demoQuestionRow(question);
    const { id } = await trx
      .insertInto('edu_question')
      .values({ ...audit, ...row })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('edu_question_tag')
      .values(question.tags.map((tag) => ({ question_id: id, tag_id: tagIds.get(tag) as number })))
      .execute();
    if (question.inExam !== undefined) fixed[question.inExam].push({ id, score: row.score });
  }

  const exam = DEMO_EXAM;
  const course = await trx.selectFrom('edu_course').select('id').where('title', '=', exam.course).executeTakeFirst();
  const term =
    course === undefined
      ? undefined
      : await trx.selectFrom('edu_term').select('id').where('course_id', '=', course.id).where('enrol_mode', '=', 'open').orderBy('start_at').executeTakeFirst();
  const fixedOf = (section: (typeof exam.sections)[number]) => (section.fixed === null ? [] : fixed[section.fixed]);
  const sections = exam.sections.map((section) => ({
    title: section.title,
    questionIds: fixedOf(section).map((question) => question.id),
    score: section.fixedScore,
    draw: section.draw.map((rule) => ({ ...rule, tags: [...rule.tags] })),
  }));
  const totalScore = exam.sections.reduce(
    (sum, section) =>
      sum +
      fixedOf(section).reduce((fixedSum, question) => fixedSum + (section.fixedScore ?? question.score), 0) +
      section.draw.reduce((drawSum, rule) => drawSum + rule.count * rule.score, 0),
    0,
  );
  const questionCount = exam.sections.reduce((sum, section) => sum + fixedOf(section).length + section.draw.reduce((drawSum, rule) => drawSum + rule.count, 0), 0);
  const openAt = Math.floor(now / DAY_MS) * DAY_MS - exam.openedDaysAgo * DAY_MS;
  const { id: examId } = await trx
    .insertInto('edu_exam')
    .values({
      ...audit,
      title: exam.title,
      course_id: course?.id ?? null,
      term_id: term?.id ?? null,
      status: 'published',
      description: exam.description,
      paper: JSON.stringify({ sections }),
      total_score: totalScore,
      question_count: questionCount,
      open_at: openAt,
      close_at: openAt + exam.daysOpen * DAY_MS,
      limit_minutes: exam.limitMinutes,
      attempts: exam.attempts,
      counts: exam.counts,
      pass_score: Math.round(totalScore * exam.passShare * 100) / 100,
      shuffle_questions: exam.shuffleQuestions ? 1 : 0,
      shuffle_options: exam.shuffleOptions ? 1 : 0,
      review: exam.review,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('edu_exam_question')
    .values([...fixed.required, ...fixed.short].map((question) => ({ exam_id: examId, question_id: question.id })))
    .execute();

  const users = await trx.selectFrom('sys_user').select(['id', 'username', 'dept_id']).execute();
  const assignee = (userId: number, source: 'staff' | 'rule', ruleId: number | null, dueAt: number | null) => ({
    exam_id: examId,
    user_id: userId,
    source,
    rule_id: ruleId,
    due_at: dueAt,
    extra_minutes: 0,
    extra_attempts: 0,
    open_at: null,
    close_at: null,
    create_by: 'system',
    create_time: now,
    update_time: now,
  });
  const staff = users.filter((user) => (exam.staff as readonly string[]).includes(user.username));
  if (staff.length > 0) await trx.insertInto('edu_exam_assignee').values(staff.map((user) => assignee(user.id, 'staff', null, null))).execute();

  // The rule as the exams service would have made it: everyone in the departments' subtrees not assigned already.
  const depts = await trx.selectFrom('sys_dept').select(['id', 'pid', 'name']).execute();
  const roots = depts.filter((dept) => (exam.rule.depts as readonly string[]).includes(dept.name)).map((dept) => dept.id);
  if (roots.length === 0) return examId;
  const covered = descendantIds(depts, roots);
  const dueAt = now + exam.rule.dueInDays * DAY_MS;
  const { id: ruleId } = await trx
    .insertInto('edu_assignment_rule')
    .values({ ...audit, target: 'dept', target_ids: JSON.stringify(roots), term_id: null, exam_id: examId, due_at: dueAt })
    .returning('id')
    .executeTakeFirstOrThrow();
  const members = users.filter((user) => user.dept_id !== null && covered.includes(user.dept_id) && !staff.includes(user));
  if (members.length > 0) await trx.insertInto('edu_exam_assignee').values(members.map((user) => assignee(user.id, 'rule', ruleId, dueAt))).execute();
  return examId;
}
