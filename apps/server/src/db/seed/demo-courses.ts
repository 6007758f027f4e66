import { dayInZone, DEFAULT_TIME_ZONE } from '@cloud-classroom/shared/calendar-day';
import { descendantIds } from '@cloud-classroom/shared/tree';
import type { Transaction } from 'kysely';
import type { DemoMedia } from '../../modules/media/demo-media.js';
import { created } from '../audit-columns.js';
import type { Database } from '../schema.js';

// The demo catalogue a first start makes, so that the course pages and the learner site have
// something real to show: two categories, three published courses with covers, chapters and
// lessons of every type (the demo video and handbook are real files), and one draft.

type DemoLesson =
  | { title: string; type: 'video'; preview?: boolean }
  | { title: string; type: 'document'; handbook: 'safetyHandbook' | 'meetingHandbook' }
  | { title: string; type: 'text'; content: string; preview?: boolean };

type DemoCourse = {
  title: string;
  category: string;
  status: 'published' | 'draft';
  required: boolean;
  cover?: 'safetyCover' | 'infosecCover' | 'onboardingCover';
  summary: string;
  description: string;
  maxPlaybackRate?: number;
  allowSkip?: boolean;
  chapters: { title: string; lessons: DemoLesson[] }[];
  terms: { name: string; startDaysFromNow: number; days: number; capacity: number | null; enrolMode: 'open' | 'approval' | 'assigned' }[];
};

const p = (...paragraphs: string[]) => paragraphs.map((text) => `<p>${text}</p>`).join('');
const list = (...items: string[]) => `<ul>${items.map((item) => `<li>${item}</li>`).join('')}</ul>`;

export const DEMO_CATEGORIES = [
  { name: '安全生产', children: ['消防安全', '信息安全'] },
  { name: '职场技能', children: [] },
] as const;

export const DEMO_COURSES: DemoCourse[] = [
  {
    title: '消防安全基础',
    category: '消防安全',
    status: 'published',
    required: true,
    cover: 'safetyCover',
    summary: '认识火灾的成因，会用灭火器，熟悉疏散路线：每位员工入职必修。',
    description:
      '<h2>课程目标</h2>' +
      list('说出火灾发生的三个条件', '正确选择并使用灭火器', '在警报响起后两分钟内按路线疏散') +
      p('本课程约 30 分钟，含一段演示视频和一本图文手册。完成全部课时即可参加结业考试。'),
    chapters: [
      {
        title: '第一章 认识火灾',
        lessons: [
          { title: '火灾是怎样发生的', type: 'video', preview: true },
          {
            title: '灭火器的种类与选择',
            type: 'text',
            content:
              '<h2>常见灭火器</h2>' +
              list(
                '<strong>干粉灭火器</strong>：适用于固体、液体、气体及带电设备初起火灾。',
                '<strong>二氧化碳灭火器</strong>：适用于精密仪器、电气设备，不留痕迹。',
                '<strong>水基型灭火器</strong>：适用于固体物质火灾，不可用于带电设备。',
              ) +
              p('使用口诀：<em>一提、二拔、三握、四压</em>——提起灭火器，拔掉保险销，握住喷管对准火焰根部，压下压把。'),
          },
        ],
      },
      {
        title: '第二章 应急疏散',
        lessons: [
          { title: '员工消防安全手册', type: 'document', handbook: 'safetyHandbook' },
          {
            title: '疏散路线与集合点',
            type: 'text',
            content:
              p('听到警报后，立即停止工作，沿最近的安全出口疏散，<strong>不要乘坐电梯</strong>。') +
              list('一楼：经东侧安全门至停车场集合点 A', '二至五楼：经楼梯间 1 或 2 下行，至集合点 A', '到达集合点后向部门负责人报到'),
          },
        ],
      },
    ],
    terms: [
      { name: '2026 年第四季度', startDaysFromNow: -30, days: 120, capacity: null, enrolMode: 'open' },
      { name: '新员工入职批次', startDaysFromNow: 0, days: 60, capacity: 50, enrolMode: 'assigned' },
    ],
  },
  {
    title: '信息安全意识',
    category: '信息安全',
    status: 'published',
    required: true,
    cover: 'infosecCover',
    summary: '识别钓鱼邮件、管好密码、保护客户数据：人人都是安全防线。',
    description: p('通过真实案例了解常见的信息安全威胁，掌握日常工作中的防护要点。') + list('钓鱼邮件识别', '密码与多因素认证', '数据分级与外发规范'),
    maxPlaybackRate: 1.5,
    chapters: [
      {
        title: '第一章 常见威胁',
        lessons: [
          {
            title: '识别钓鱼邮件',
            type: 'text',
            preview: true,
            content:
              p('钓鱼邮件常伪装成同事、领导或合作伙伴，诱导你点击链接或提供密码。') +
              '<h3>五个危险信号</h3>' +
              list('发件人地址与显示名称不符', '制造紧迫感：“立即处理，否则账号停用”', '要求提供密码或验证码', '链接指向陌生域名', '附件为可执行文件或带宏的文档'),
          },
          { title: '案例视频：一次失败的钓鱼攻击', type: 'video' },
        ],
      },
      {
        title: '第二章 日常防护',
        lessons: [
          {
            title: '密码与多因素认证',
            type: 'text',
            content: p('使用至少 12 位、包含多种字符的密码，不同系统不要重复使用。') + p('公司邮箱和 VPN 必须开启多因素认证。'),
          },
        ],
      },
    ],
    terms: [{ name: '2026 年度全员培训', startDaysFromNow: -10, days: 80, capacity: 500, enrolMode: 'approval' }],
  },
  {
    title: '高效沟通',
    category: '职场技能',
    status: 'published',
    required: false,
    cover: 'onboardingCover',
    summary: '倾听、表达与反馈：让会议更短、协作更顺。',
    description: p('选修课程。学习结构化表达和有效反馈的方法，并在练习中应用。'),
    allowSkip: true,
    chapters: [
      {
        title: '第一章 倾听与表达',
        lessons: [
          {
            title: '结构化表达：结论先行',
            type: 'text',
            preview: true,
            content: p('先说结论，再给理由，最后补充细节。') + '<blockquote>“我建议下周上线，因为测试已全部通过，剩余风险可控。”</blockquote>',
          },
          { title: '会议沟通参考手册', type: 'document', handbook: 'meetingHandbook' },
        ],
      },
    ],
    terms: [{ name: '春季公开班', startDaysFromNow: 15, days: 45, capacity: 30, enrolMode: 'open' }],
  },
  {
    title: '项目管理入门',
    category: '职场技能',
    status: 'draft',
    required: false,
    summary: '编写中：从范围、进度到风险，带你走完一个小项目。',
    description: p('课程正在编写，尚未发布。'),
    chapters: [{ title: '第一章 项目的起点', lessons: [{ title: '什么是项目', type: 'text', content: p('项目是为创造独特的产品、服务或成果而进行的临时性工作。') }] }],
    terms: [],
  },
];

const DAY_MS = 86_400_000;

/**
 * The demo's enrolments, so the applicants page and the learner's "my courses" have something:
 * learner1 enrolled in the open fire-safety term and awaiting approval in the information-security
 * one; a department rule assigning information security to 培训部 and 市场部, due in a week, and
 * learner2's enrolment from it moved to a date already past (overdue).
 */
export const DEMO_ENROLMENTS = {
  applied: [
    { username: 'learner1', course: '消防安全基础', term: '2026 年第四季度', status: 'approved', daysAgo: 12 },
    { username: 'learner1', course: '信息安全意识', term: '2026 年度全员培训', status: 'applied', daysAgo: 2 },
  ],
  rule: { course: '信息安全意识', term: '2026 年度全员培训', depts: ['培训部', '市场部'], dueInDays: 7, daysAgo: 20 },
  overdue: { username: 'learner2', dueDaysAgo: 3 },
} as const;

/** Inserts the demo catalogue, owned by `ownerId`, using the demo media; inside the seed's transaction. */
/** `timeZone`: the organisation's (config `TZ`), whose calendar days the demo's study time is filed under. */
export async function insertDemoCourses(trx: Transaction<Database>, media: DemoMedia, ownerId: number | null, now: number, timeZone = DEFAULT_TIME_ZONE): Promise<void> {
  const audit = created('system', now);
  const categoryIds = new Map<string, number>();
  for (const [index, category] of DEMO_CATEGORIES.entries()) {
    const { id } = await trx
      .insertInto('edu_category')
      .values({ ...audit, pid: null, name: category.name, sort: index + 1, sub_count: category.children.length })
      .returning('id')
      .executeTakeFirstOrThrow();
    categoryIds.set(category.name, id);
    for (const [childIndex, child] of category.children.entries()) {
      const inserted = await trx
        .insertInto('edu_category')
        .values({ ...audit, pid: id, name: child, sort: childIndex + 1, sub_count: 0 })
        .returning('id')
        .executeTakeFirstOrThrow();
      categoryIds.set(child, inserted.id);
    }
  }

  for (const course of DEMO_COURSES) {
    const { id: courseId } = await trx
      .insertInto('edu_course')
      .values({
        ...audit,
        title: course.title,
        category_id: categoryIds.get(course.category) ?? null,
        status: course.status,
        required: course.required ? 1 : 0,
        cover_media_id: course.cover === undefined ? null : media[course.cover].id,
        summary: course.summary,
        description: course.description,
        owner_id: ownerId,
        max_playback_rate: course.maxPlaybackRate ?? 2,
        allow_skip: course.allowSkip === true ? 1 : 0,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const [chapterIndex, chapter] of course.chapters.entries()) {
      const { id: chapterId } = await trx
        .insertInto('edu_chapter')
        .values({ ...audit, course_id: courseId, title: chapter.title, sort: chapterIndex + 1 })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('edu_lesson')
        .values(
          chapter.lessons.map((lesson, lessonIndex) => ({
            ...audit,
            course_id: courseId,
            chapter_id: chapterId,
            title: lesson.title,
            type: lesson.type,
            media_id: lesson.type === 'video' ? media.safetyVideo.id : lesson.type === 'document' ? media[lesson.handbook].id : null,
            content: lesson.type === 'text' ? lesson.content : '',
            completion_percent: 90,
            preview: lesson.type !== 'document' && lesson.preview === true ? 1 : 0,
            sort: lessonIndex + 1,
          })),
        )
        .execute();
    }
    if (course.terms.length > 0) {
      await trx
        .insertInto('edu_term')
        .values(
          course.terms.map((term) => {
            const startAt = Math.floor((now + term.startDaysFromNow * DAY_MS) / DAY_MS) * DAY_MS;
            return { ...audit, course_id: courseId, name: term.name, start_at: startAt, end_at: startAt + term.days * DAY_MS, capacity: term.capacity, enrol_mode: term.enrolMode };
          }),
        )
        .execute();
    }
  }
  await insertDemoEnrolments(trx, now);
  await insertDemoProgress(trx, now, timeZone);
}

async function insertDemoEnrolments(trx: Transaction<Database>, now: number): Promise<void> {
  const audit = created('system', now);
  const termId = async (course: string, term: string) =>
    (
      await trx
        .selectFrom('edu_term as t')
        .innerJoin('edu_course as c', 'c.id', 't.course_id')
        .select('t.id')
        .where('c.title', '=', course)
        .where('t.name', '=', term)
        .executeTakeFirstOrThrow()
    ).id;
  const users = new Map((await trx.selectFrom('sys_user').select(['id', 'username', 'dept_id']).execute()).map((user) => [user.username, user]));
  const row = (term: number, userId: number, status: string, source: string, dueAt: number | null, ruleId: number | null, createdAt: number) => ({
    ...audit,
    create_time: createdAt,
    update_time: createdAt,
    term_id: term,
    user_id: userId,
    status,
    source,
    due_at: dueAt,
    reason: null,
    rule_id: ruleId,
    completed_at: null,
  });

  for (const enrolment of DEMO_ENROLMENTS.applied) {
    const user = users.get(enrolment.username);
    const createdAt = now - enrolment.daysAgo * DAY_MS;
    if (user !== undefined) await trx.insertInto('edu_applicant').values(row(await termId(enrolment.course, enrolment.term), user.id, enrolment.status, 'self', null, null, createdAt)).execute();
  }

  // The rule as the applicants service would have made it: everyone in the departments' subtrees, enrolled at once.
  const { rule, overdue } = DEMO_ENROLMENTS;
  const term = await termId(rule.course, rule.term);
  const depts = await trx.selectFrom('sys_dept').select(['id', 'pid', 'name']).execute();
  const roots = depts.filter((dept) => (rule.depts as readonly string[]).includes(dept.name)).map((dept) => dept.id);
  const covered = descendantIds(depts, roots);
  const dueAt = now + rule.dueInDays * DAY_MS;
  const ruleMadeAt = now - rule.daysAgo * DAY_MS;
  const { id: ruleId } = await trx
    .insertInto('edu_assignment_rule')
    .values({ ...created('system', ruleMadeAt), target: 'dept', target_ids: JSON.stringify(roots), term_id: term, exam_id: null, due_at: dueAt })
    .returning('id')
    .executeTakeFirstOrThrow();
  const already = new Set((await trx.selectFrom('edu_applicant').select('user_id').where('term_id', '=', term).execute()).map((one) => one.user_id));
  const assigned = [...users.values()].filter((user) => user.dept_id !== null && covered.includes(user.dept_id) && !already.has(user.id));
  for (const [index, user] of assigned.entries()) {
    const due = user.username === overdue.username ? now - overdue.dueDaysAgo * DAY_MS : dueAt;
    // The rule enrolled those there when it was made; the rest joined their departments since, a few days apart.
    const joinedAt = index < 3 ? ruleMadeAt : ruleMadeAt + (index - 2) * 2 * DAY_MS;
    await trx.insertInto('edu_applicant').values(row(term, user.id, 'approved', 'rule', due, ruleId, Math.min(joinedAt, now))).execute();
  }
}

/**
 * Study the demo learners have done, so "continue learning", the progress rings, the study-time
 * chart and the applicants' progress column show something: learner1 has watched the fire-safety
 * video and read its first text (the course in progress) over the last ten days; learner2 has
 * watched half of the information-security video it is overdue on.
 */
export const DEMO_STUDY = {
  progress: [
    { username: 'learner1', course: '消防安全基础', lesson: '火灾是怎样发生的', share: 1 },
    { username: 'learner1', course: '消防安全基础', lesson: '灭火器的种类与选择', share: 1 },
    { username: 'learner2', course: '信息安全意识', lesson: '案例视频：一次失败的钓鱼攻击', share: 0.5 },
  ],
  /** Minutes of study on each of the last ten days, today last. */
  days: { learner1: [12, 0, 25, 8, 0, 0, 31, 15, 0, 6], learner2: [0, 0, 0, 4, 0, 0, 0, 0, 0, 0] },
} as const;

async function insertDemoProgress(trx: Transaction<Database>, now: number, timeZone: string): Promise<void> {
  const users = new Map((await trx.selectFrom('sys_user').select(['id', 'username']).execute()).map((user) => [user.username, user.id]));
  for (const done of DEMO_STUDY.progress) {
    const userId = users.get(done.username);
    const lesson = await trx
      .selectFrom('edu_lesson as l')
      .innerJoin('edu_course as c', 'c.id', 'l.course_id')
      .leftJoin('edu_media as m', 'm.id', 'l.media_id')
      .select(['l.id', 'l.course_id', 'l.type', 'l.completion_percent', 'm.duration_seconds'])
      .where('c.title', '=', done.course)
      .where('l.title', '=', done.lesson)
      .executeTakeFirst();
    if (userId === undefined || lesson === undefined) continue;
    const duration = lesson.duration_seconds ?? 0;
    const covered = lesson.type === 'video' ? duration * done.share : 0;
    const percent = Math.floor(done.share * 100);
    await trx
      .insertInto('edu_lesson_progress')
      .values({
        user_id: userId,
        lesson_id: lesson.id,
        course_id: lesson.course_id,
        intervals: JSON.stringify(lesson.type === 'video' && covered > 0 ? [[0, covered]] : []),
        covered_seconds: covered,
        pages_read: JSON.stringify(lesson.type === 'video' ? [] : [1]),
        percent,
        position: lesson.type === 'video' ? covered : 1,
        completed_at: percent >= lesson.completion_percent ? now - DAY_MS : null,
        updated_at: now - DAY_MS,
      })
      .execute();
    // Started: the enrolment is in progress, as a report would have left it.
    const terms = trx.selectFrom('edu_term').select('id').where('course_id', '=', lesson.course_id);
    await trx.updateTable('edu_applicant').set({ status: 'in_progress' }).where('user_id', '=', userId).where('term_id', 'in', terms).where('status', '=', 'approved').execute();
  }
  for (const [username, minutes] of Object.entries(DEMO_STUDY.days)) {
    const userId = users.get(username);
    if (userId === undefined) continue;
    const rows = minutes.flatMap((perDay, index) =>
      perDay === 0 ? [] : [{ user_id: userId, day: dayInZone(now - (minutes.length - 1 - index) * DAY_MS, timeZone), seconds: perDay * 60 }],
    );
    if (rows.length > 0) await trx.insertInto('edu_study_day').values(rows).execute();
  }
}
