import { z } from 'zod';
import { idSchema, idTextSchema, pageQuerySchema, queryFlagSchema, REQUIRED, sortableBy, wireTimeSchema } from './http.js';
import { blankRulesSchema, multiplePolicySchema, optionSchema, questionTypeSchema, MAX_QUESTION_SCORE } from './questions.js';

// Exam design (DESIGN §6, §10): an exam's paper (sections of fixed questions and draw rules), its
// window, limit, attempts and review policy, the staff's preview of a drawn paper, and who is
// assigned it (people, department subtrees with later joiners, roles, a term's applicants) with
// personal overrides. Taking an exam (attempts, answers, marking) builds on this.

const auditFields = {
  createBy: z.string().nullable(),
  updateBy: z.string().nullable(),
  createTime: z.string(),
  updateTime: z.string(),
};

export const EXAM_STATUSES = ['draft', 'published'] as const;
export type ExamStatus = (typeof EXAM_STATUSES)[number];
/** Which attempt's score counts when several are allowed. */
export const EXAM_COUNTS = ['best', 'last', 'first'] as const;
export type ExamCounts = (typeof EXAM_COUNTS)[number];
/** When a learner may see the key, the analysis and their marks: never, once submitted, or once the window has closed. */
export const EXAM_REVIEWS = ['never', 'after_submit', 'after_close'] as const;
export type ExamReview = (typeof EXAM_REVIEWS)[number];

export const MAX_SECTIONS = 20;
export const MAX_DRAW_COUNT = 200;
export const MAX_LIMIT_MINUTES = 1440;
export const MAX_ATTEMPTS = 100;
/** No real paper is longer; it also bounds the draw's matching (exam-draw.ts recurses per question). */
export const MAX_PAPER_QUESTIONS = 500;

/** Fixed questions plus every draw rule's count. */
function paperQuestionCount(paper: { sections: readonly { questionIds: readonly number[]; draw: readonly { count: number }[] }[] }): number {
  return paper.sections.reduce((total, section) => total + section.questionIds.length + section.draw.reduce((sum, rule) => sum + rule.count, 0), 0);
}

const scoreSchema = z
  .number()
  .positive()
  .max(MAX_QUESTION_SCORE)
  .refine((score) => Number.isInteger(Math.round(score * 100 * 1e6) / 1e6), 'has more than two decimals');

/** Questions drawn at random from the bank: those carrying any of `tags` (any question when none), of `type`, of `difficulty` (any when null). */
export const drawRuleSchema = z.object({
  tags: z
    .array(z.string().trim().min(1, 'is required').max(30))
    .max(10)
    .default([])
    .transform((tags) => [...new Set(tags)]),
  type: questionTypeSchema,
  difficulty: z.number().int().min(1).max(5).nullish().transform((difficulty) => difficulty ?? null),
  count: z.number().int().min(1).max(MAX_DRAW_COUNT),
  /** Each drawn question's score. */
  score: scoreSchema,
});
export type DrawRule = z.output<typeof drawRuleSchema>;

export const paperSectionSchema = z.object({
  title: z.string(REQUIRED).trim().min(1, 'is required').max(100),
  /** Fixed questions, in the order they are shown (unless shuffled). */
  questionIds: z
    .array(idSchema)
    .max(500)
    .default([])
    .refine((ids) => new Set(ids).size === ids.length, 'names a question twice'),
  /** The fixed questions' score each; null: each question's own default score. */
  score: scoreSchema.nullish().transform((score) => score ?? null),
  draw: z.array(drawRuleSchema).max(20).default([]),
});
export type PaperSection = z.output<typeof paperSectionSchema>;

export const paperSchema = z
  .object({ sections: z.array(paperSectionSchema).min(1, 'add a section').max(MAX_SECTIONS) })
  .refine((paper) => paper.sections.some((section) => section.questionIds.length > 0 || section.draw.length > 0), {
    message: 'the paper has no question',
    path: ['sections'],
  })
  .refine(
    (paper) => {
      const ids = paper.sections.flatMap((section) => section.questionIds);
      return new Set(ids).size === ids.length;
    },
    { message: 'a question is in two sections', path: ['sections'] },
  )
  .refine((paper) => paperQuestionCount(paper) <= MAX_PAPER_QUESTIONS, {
    message: `a paper holds at most ${MAX_PAPER_QUESTIONS} questions`,
    path: ['sections'],
  });
export type Paper = z.output<typeof paperSchema>;
export type PaperBody = z.input<typeof paperSchema>;

/**
 * The paper as the server answers it: the saved shape, without the defaults, transforms and
 * checks of `paperSchema` (a response schema is encoded, and a transform cannot be).
 */
export const savedPaperSchema = z.object({
  sections: z.array(
    z.object({
      title: z.string(),
      questionIds: z.array(z.number().int()),
      score: z.number().nullable(),
      draw: z.array(
        z.object({ tags: z.array(z.string()), type: questionTypeSchema, difficulty: z.number().int().nullable(), count: z.number().int(), score: z.number() }),
      ),
    }),
  ),
}) satisfies z.ZodType<Paper>;

export const examSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  courseId: z.number().int().nullable(),
  courseTitle: z.string().nullable(),
  termId: z.number().int().nullable(),
  termName: z.string().nullable(),
  status: z.enum(EXAM_STATUSES),
  /** Instructions shown before the start (plain text). */
  description: z.string(),
  paper: savedPaperSchema,
  openAt: z.string().nullable(),
  closeAt: z.string().nullable(),
  /** null: no limit but the window. */
  limitMinutes: z.number().int().nullable(),
  attempts: z.number().int(),
  counts: z.enum(EXAM_COUNTS),
  passScore: z.number(),
  /** The paper's full marks: fixed questions' scores plus each draw rule's count × score. */
  totalScore: z.number(),
  questionCount: z.number().int(),
  shuffleQuestions: z.boolean(),
  shuffleOptions: z.boolean(),
  review: z.enum(EXAM_REVIEWS),
  /** How many people are assigned it. */
  assigneeCount: z.number().int(),
  ...auditFields,
});
export type Exam = z.infer<typeof examSchema>;

export const EXAM_SORT_FIELDS = ['id', 'title', 'status', 'openAt', 'closeAt', 'createTime', 'updateTime'] as const;

/** `GET api/exams`. */
export const examQuerySchema = pageQuerySchema.extend({
  sort: sortableBy(EXAM_SORT_FIELDS),
  q: z.string().trim().max(100).optional(),
  courseId: idTextSchema.optional(),
  status: z.enum(EXAM_STATUSES).optional(),
});
export type ExamQuery = z.output<typeof examQuerySchema>;

const nullableTime = wireTimeSchema.nullish().transform((at) => at ?? null);

const examFields = {
  title: z.string(REQUIRED).trim().min(1, 'is required').max(100),
  /** The course it belongs to; a term implies its course. */
  courseId: idSchema.nullish().transform((id) => id ?? null),
  termId: idSchema.nullish().transform((id) => id ?? null),
  status: z.enum(EXAM_STATUSES).default('draft'),
  description: z.string().trim().max(2000).default(''),
  paper: paperSchema,
  openAt: nullableTime,
  closeAt: nullableTime,
  limitMinutes: z.number().int().min(1).max(MAX_LIMIT_MINUTES).nullish().transform((minutes) => minutes ?? null),
  attempts: z.number().int().min(1).max(MAX_ATTEMPTS).default(1),
  counts: z.enum(EXAM_COUNTS).default('best'),
  /** At most the paper's total (checked by the server, which knows the questions' scores). */
  passScore: z.number().min(0).max(100_000),
  shuffleQuestions: z.boolean().default(false),
  shuffleOptions: z.boolean().default(false),
  review: z.enum(EXAM_REVIEWS).default('after_submit'),
};

const closesAfterOpening = {
  check: (exam: { openAt: number | null; closeAt: number | null }) => exam.openAt === null || exam.closeAt === null || exam.closeAt > exam.openAt,
  issue: { message: 'is not after the opening time', path: ['closeAt'] },
};
export const examCreateSchema = z.object(examFields).refine(closesAfterOpening.check, closesAfterOpening.issue);
export type ExamCreate = z.output<typeof examCreateSchema>;
export type ExamCreateBody = z.input<typeof examCreateSchema>;
export const examUpdateSchema = z.object({ id: idSchema, ...examFields }).refine(closesAfterOpening.check, closesAfterOpening.issue);
export type ExamUpdate = z.output<typeof examUpdateSchema>;

/**
 * `POST api/exams/draw-check` (the editor's live count): for each section's each draw rule, how
 * many questions match it and how many it can still draw given the fixed questions and the other
 * rules; `short` when the bank cannot satisfy it (saving would answer 400).
 */
export const drawCheckSchema = z.object({ paper: paperSchema });
export const drawCheckResultSchema = z.object({
  sections: z.array(z.object({ rules: z.array(z.object({ matching: z.number().int(), available: z.number().int(), short: z.boolean() })) })),
  totalScore: z.number(),
  questionCount: z.number().int(),
});
export type DrawCheckResult = z.infer<typeof drawCheckResultSchema>;

/** A question as a paper shows it; `answer`, `blankRules` and `analysis` only where the key may be shown (staff's preview, review). */
export const paperQuestionSchema = z.object({
  id: z.number().int(),
  type: questionTypeSchema,
  stem: z.string(),
  /** In the order shown (shuffled when the exam says so; keys stay the question's own). */
  options: z.array(optionSchema),
  /** A blank question's number of blanks; 0 for the other types. */
  blanks: z.number().int(),
  score: z.number(),
  policy: multiplePolicySchema.nullable(),
  answer: z.union([z.array(z.array(z.string())), z.array(z.string())]).optional(),
  blankRules: blankRulesSchema.nullable().optional(),
  analysis: z.string().optional(),
});
export type PaperQuestion = z.infer<typeof paperQuestionSchema>;

/** `GET api/exams/{id}/preview`: one paper drawn as a learner would get it, with the key (staff only). */
export const examPreviewSchema = z.object({
  examId: z.number().int(),
  title: z.string(),
  description: z.string(),
  limitMinutes: z.number().int().nullable(),
  totalScore: z.number(),
  passScore: z.number(),
  sections: z.array(z.object({ title: z.string(), questions: z.array(paperQuestionSchema) })),
});
export type ExamPreview = z.infer<typeof examPreviewSchema>;

// ---- Assignment ---------------------------------------------------------------------------------

/** Who an assignment targets: named people, department subtrees (with later joiners), roles, or a term's applicants (with later ones). */
export const EXAM_TARGETS = ['users', 'dept', 'role', 'term'] as const;
export type ExamTarget = (typeof EXAM_TARGETS)[number];

export const examAssigneeSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  username: z.string(),
  nickName: z.string(),
  deptName: z.string().nullable(),
  /** `staff`: named by hand; `rule`: through a department, role or term rule. */
  source: z.enum(['staff', 'rule']),
  ruleId: z.number().int().nullable(),
  dueAt: z.string().nullable(),
  extraMinutes: z.number().int(),
  extraAttempts: z.number().int(),
  /** A personal window, replacing the exam's. */
  openAt: z.string().nullable(),
  closeAt: z.string().nullable(),
  createTime: z.string(),
});
export type ExamAssignee = z.infer<typeof examAssigneeSchema>;

/** `GET api/exams/{id}/assignees`. */
export const examAssigneeQuerySchema = pageQuerySchema.extend({
  sort: sortableBy(['id', 'createTime'] as const),
  q: z.string().trim().max(100).optional(),
  /** Only those past their due date who have passed no attempt (the dashboard's overdue figure). */
  overdue: queryFlagSchema.optional(),
});
export type ExamAssigneeQuery = z.output<typeof examAssigneeQuerySchema>;

/** `POST api/exams/{id}/assignees` → 201 `{ created, existing }` (and the rule made, for a department, role or term). */
export const examAssignSchema = z.object({
  target: z.enum(EXAM_TARGETS),
  ids: z.array(idSchema).min(1, 'list at least one id').max(1000),
  dueAt: nullableTime,
});
export type ExamAssign = z.output<typeof examAssignSchema>;
export type ExamAssignBody = z.input<typeof examAssignSchema>;
export const examAssignedSchema = z.object({ created: z.number().int(), existing: z.number().int(), ruleId: z.number().int().nullable() });
export type ExamAssigned = z.infer<typeof examAssignedSchema>;

/** `PUT api/exams/{id}/assignees`: personal overrides for the listed assignees. */
export const examAssigneeOverrideSchema = z
  .object({
    ids: z.array(idSchema).min(1, 'list at least one id').max(1000),
    extraMinutes: z.number().int().min(0).max(MAX_LIMIT_MINUTES).default(0),
    extraAttempts: z.number().int().min(0).max(MAX_ATTEMPTS).default(0),
    openAt: nullableTime,
    closeAt: nullableTime,
    dueAt: nullableTime,
  })
  .refine(closesAfterOpening.check, closesAfterOpening.issue);
export type ExamAssigneeOverride = z.output<typeof examAssigneeOverrideSchema>;
export type ExamAssigneeOverrideBody = z.input<typeof examAssigneeOverrideSchema>;

/** `GET api/exams/{id}/assignees/rules`: the department, role and term rules of the exam. */
export const examRuleSchema = z.object({
  id: z.number().int(),
  target: z.enum(['dept', 'role', 'term']),
  ids: z.array(z.number().int()),
  names: z.array(z.string()),
  dueAt: z.string().nullable(),
  assigneeCount: z.number().int(),
  createTime: z.string(),
});
export type ExamRule = z.infer<typeof examRuleSchema>;

// ---- The learner's side -------------------------------------------------------------------------

/** Where an exam stands for me now: not open yet, open, or closed (window over or no attempt left). */
export const SITE_EXAM_STATES = ['upcoming', 'open', 'closed'] as const;

/** `GET api/site/exams` (optionally `?courseId=`): the published exams assigned to me, with my window and attempts. */
export const siteExamSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  courseId: z.number().int().nullable(),
  courseTitle: z.string().nullable(),
  /** My window (a personal one when staff set it). */
  openAt: z.string().nullable(),
  closeAt: z.string().nullable(),
  dueAt: z.string().nullable(),
  /** Past its due time and still to be sat (not closed), by the server's clock. */
  overdue: z.boolean(),
  /** My limit, extra minutes included. */
  limitMinutes: z.number().int().nullable(),
  attemptsAllowed: z.number().int(),
  attemptsUsed: z.number().int(),
  attemptsLeft: z.number().int(),
  /** My attempt still in progress (to resume), if any. */
  openAttemptId: z.number().int().nullable(),
  totalScore: z.number(),
  passScore: z.number(),
  questionCount: z.number().int(),
  state: z.enum(SITE_EXAM_STATES),
});
export type SiteExam = z.infer<typeof siteExamSchema>;
export const siteExamQuerySchema = z.object({ courseId: idTextSchema.optional() });
