import { z } from 'zod';
import { idSchema, idTextSchema, pageQuerySchema, queryFlagSchema, REQUIRED, sortableBy, wireTimeSchema } from './http.js';

// Enrolment (DESIGN §10): the people in a term (applicants) and the rules that assign people to a
// term. A learner applies from the site (`POST api/site/courses/{id}/apply`, see progress.ts for
// the learner's side); staff approve, reject, enrol, import and assign from the back office.

const auditFields = {
  createBy: z.string().nullable(),
  updateBy: z.string().nullable(),
  createTime: z.string(),
  updateTime: z.string(),
};

/** applied → approved / rejected → in_progress → completed. */
export const APPLICANT_STATUSES = ['applied', 'approved', 'rejected', 'in_progress', 'completed'] as const;
export type ApplicantStatus = (typeof APPLICANT_STATUSES)[number];
/** The statuses of someone who may study the course (and who takes a seat). */
export const ENROLLED_STATUSES = ['approved', 'in_progress', 'completed'] as const satisfies readonly ApplicantStatus[];

/** How the enrolment came about: the learner applied, a rule assigned it, a spreadsheet, or staff by hand. */
export const APPLICANT_SOURCES = ['self', 'rule', 'import', 'staff'] as const;
export type ApplicantSource = (typeof APPLICANT_SOURCES)[number];

export const applicantSchema = z.object({
  id: z.number().int(),
  termId: z.number().int(),
  termName: z.string(),
  courseId: z.number().int(),
  courseTitle: z.string(),
  userId: z.number().int(),
  username: z.string(),
  nickName: z.string(),
  deptName: z.string().nullable(),
  status: z.enum(APPLICANT_STATUSES),
  source: z.enum(APPLICANT_SOURCES),
  /** The rule that assigned it, for source `rule`. */
  ruleId: z.number().int().nullable(),
  dueAt: z.string().nullable(),
  /** Past its due date and not completed. */
  overdue: z.boolean(),
  /** Why it was rejected. */
  reason: z.string().nullable(),
  /** The course's progress: completed required lessons over required lessons, 0–100. */
  percent: z.number().int(),
  completedAt: z.string().nullable(),
  ...auditFields,
});
export type Applicant = z.infer<typeof applicantSchema>;

export const APPLICANT_SORT_FIELDS = ['id', 'status', 'dueAt', 'createTime', 'updateTime'] as const;

/** `GET api/applicants` and `GET api/applicants/download`. */
export const applicantQuerySchema = pageQuerySchema.extend({
  sort: sortableBy(APPLICANT_SORT_FIELDS),
  /** The selected course's term; without it (or courseId), every term staff may see. */
  termId: idTextSchema.optional(),
  courseId: idTextSchema.optional(),
  status: z.enum(APPLICANT_STATUSES).optional(),
  source: z.enum(APPLICANT_SOURCES).optional(),
  /** Part of the username or nick name. */
  q: z.string().trim().max(100).optional(),
  /** Only those past their due date and not completed (the overdue list). */
  overdue: queryFlagSchema.optional(),
});
export type ApplicantQuery = z.output<typeof applicantQuerySchema>;

/** `POST api/applicants`: staff enrol people directly (source `staff`, status approved). */
export const applicantCreateSchema = z.object({
  termId: idSchema,
  userIds: z.array(idSchema).min(1, 'list at least one person').max(1000),
  dueAt: wireTimeSchema.nullish().transform((at) => at ?? null),
});
export type ApplicantCreate = z.output<typeof applicantCreateSchema>;
export type ApplicantCreateBody = z.input<typeof applicantCreateSchema>;
/** What enrolling people answers (201): how many were enrolled now and how many already were. */
export const applicantsCreatedSchema = z.object({ created: z.number().int(), existing: z.number().int() });
export type ApplicantsCreated = z.infer<typeof applicantsCreatedSchema>;

/** `PUT api/applicants` (edit-applicant): status, due date and reason of one enrolment. */
export const applicantUpdateSchema = z.object({
  id: idSchema,
  status: z.enum(APPLICANT_STATUSES),
  dueAt: wireTimeSchema.nullish().transform((at) => at ?? null),
  reason: z.string().trim().max(500).nullish().transform((reason) => reason || null),
});
export type ApplicantUpdate = z.output<typeof applicantUpdateSchema>;
export type ApplicantUpdateBody = z.input<typeof applicantUpdateSchema>;

export const applicantIdsSchema = z.array(idSchema).min(1, 'list at least one id').max(1000);
/** `PUT api/applicants/reject`. */
export const applicantRejectSchema = z.object({
  ids: applicantIdsSchema,
  reason: z.string(REQUIRED).trim().min(1, 'is required').max(500),
});
export type ApplicantReject = z.output<typeof applicantRejectSchema>;

/** `POST api/applicants/import?termId=&dryRun=`: an xlsx of usernames (and due dates) enrolled into one term. */
export const applicantImportQuerySchema = z.object({
  termId: idTextSchema,
  dryRun: queryFlagSchema.default(true),
});
export type ApplicantImportQuery = z.output<typeof applicantImportQuerySchema>;
/** The import's columns, in the template's order (`GET api/applicants/template`). */
export const APPLICANT_IMPORT_COLUMNS = ['username', 'dueAt'] as const;
/** A row of an imported sheet that passed every check: what a clean file creates from it. */
export const importRowSchema = z.object({
  sheet: z.string(),
  /** As Excel numbers it. */
  row: z.number().int(),
  /** The question's type; null where a sheet holds one kind of thing. */
  type: z.string().nullable(),
  /** What the row is, in a few words: a stem's start, a username, a certificate's number. */
  text: z.string(),
});
export type ImportRow = z.infer<typeof importRowSchema>;
/**
 * What an import answers (the same shape as every import of the product). `total` counts the rows
 * read, not the template's example rows, which are never imported and are listed in `examples`.
 */
export const importResultSchema = z.object({
  total: z.number().int(),
  valid: z.number().int(),
  created: z.number().int(),
  errors: z.array(z.object({ row: z.number().int(), column: z.string(), message: z.string() })),
  /** The valid rows, sheet by sheet, in the workbook's order. */
  rows: z.array(importRowSchema),
  examples: z.array(z.object({ sheet: z.string(), row: z.number().int() })),
});
export type ImportResult = z.infer<typeof importResultSchema>;

// ---- Assignment rules ---------------------------------------------------------------------------

export const RULE_TARGETS = ['dept', 'role', 'users'] as const;
export type RuleTarget = (typeof RULE_TARGETS)[number];

export const assignmentRuleSchema = z.object({
  id: z.number().int(),
  target: z.enum(RULE_TARGETS),
  /** Department, role or user ids, as `target` says. */
  ids: z.array(z.number().int()),
  /** Their names, in the same order (a deleted one is left out). */
  names: z.array(z.string()),
  /** People a rule names who are outside the caller's data scope: counted, never named (`ids` and `names` leave them out). */
  othersOutsideScope: z.number().int(),
  termId: z.number().int().nullable(),
  termName: z.string().nullable(),
  /** For the exams issue: a rule may assign an exam instead of a term. */
  examId: z.number().int().nullable(),
  dueAt: z.string().nullable(),
  /** The people it has enrolled so far. */
  applicantCount: z.number().int(),
  ...auditFields,
});
export type AssignmentRule = z.infer<typeof assignmentRuleSchema>;

/** `GET api/assignment-rules`. */
export const assignmentRuleQuerySchema = pageQuerySchema.extend({
  sort: sortableBy(['id', 'createTime'] as const),
  termId: idTextSchema.optional(),
  courseId: idTextSchema.optional(),
});
export type AssignmentRuleQuery = z.output<typeof assignmentRuleQuerySchema>;

const ruleFields = {
  target: z.enum(RULE_TARGETS),
  ids: z.array(idSchema).min(1, 'list at least one').max(1000),
  termId: idSchema,
  dueAt: wireTimeSchema.nullish().transform((at) => at ?? null),
};
/** A department rule includes the department's subtree and the people who join it later. */
export const assignmentRuleCreateSchema = z.object(ruleFields);
export type AssignmentRuleCreate = z.output<typeof assignmentRuleCreateSchema>;
export type AssignmentRuleCreateBody = z.input<typeof assignmentRuleCreateSchema>;
export const assignmentRuleUpdateSchema = z.object({ id: idSchema, ...ruleFields });
export type AssignmentRuleUpdate = z.output<typeof assignmentRuleUpdateSchema>;
export type AssignmentRuleUpdateBody = z.input<typeof assignmentRuleUpdateSchema>;
