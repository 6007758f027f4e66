import { z } from 'zod';
import { ID_MAX, idSchema, pageQuerySchema, queryFlagSchema, REQUIRED, sortableBy } from './http.js';
import { DEFAULT_BLANK_RULES, JUDGE_KEYS, MULTIPLE_POLICIES, QUESTION_TYPES, type QuestionType } from './question-scoring.js';

// The question bank (DESIGN §6, §10): five types of question, scored by `question-scoring.ts`,
// tagged with knowledge points (made on the fly from their names), imported from and exported to
// a workbook with one sheet per type (answering `importResultSchema` of applicants.ts, the
// product's one import shape).

const auditFields = {
  createBy: z.string().nullable(),
  updateBy: z.string().nullable(),
  createTime: z.string(),
  updateTime: z.string(),
};

/** Longest stem or analysis, in characters of HTML. */
export const QUESTION_TEXT_MAX_LENGTH = 20_000;
export const OPTION_KEYS = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J'] as const;
export const MIN_OPTIONS = 2;
export const MAX_OPTIONS = OPTION_KEYS.length;
export const MAX_BLANKS = 20;
export const MAX_ALTERNATIVES = 20;
export const MAX_TAGS = 10;
export const MAX_QUESTION_SCORE = 100;
export const DIFFICULTIES = [1, 2, 3, 4, 5] as const;

/** Types whose answer is option keys. */
export const CHOICE_TYPES = ['single', 'multiple'] as const satisfies readonly QuestionType[];

export const questionTypeSchema = z.enum(QUESTION_TYPES);
export const multiplePolicySchema = z.enum(MULTIPLE_POLICIES);

export const optionSchema = z.object({
  key: z.enum(OPTION_KEYS),
  /** Plain text. */
  text: z.string(REQUIRED).trim().min(1, 'is required').max(500),
});
export type QuestionOption = z.infer<typeof optionSchema>;

export const blankRulesSchema = z.object({
  ignoreCase: z.boolean(),
  ignoreWidth: z.boolean(),
  trimSpaces: z.boolean(),
  ignoreInnerSpaces: z.boolean(),
  anyOrder: z.boolean(),
});

/**
 * The key: the right option keys (single: one; multiple: one or more; judge: `T` or `F`), the
 * accepted answers of each blank (blank: one list per blank), or the reference answer (short:
 * none or one text, for the markers).
 */
export const answerSchema = z.union([z.array(z.array(z.string())), z.array(z.string())]);
export type QuestionAnswer = z.infer<typeof answerSchema>;

export const questionSchema = z.object({
  id: z.number().int(),
  type: questionTypeSchema,
  /** Sanitised HTML. */
  stem: z.string(),
  /** The stem as plain text, for lists. */
  stemText: z.string(),
  options: z.array(optionSchema),
  answer: answerSchema,
  /** For blanks; null for the other types. */
  blankRules: blankRulesSchema.nullable(),
  /** Sanitised HTML, shown when review allows. */
  analysis: z.string(),
  difficulty: z.number().int(),
  tags: z.array(z.string()),
  score: z.number(),
  /** For multiple choice; null for the other types. */
  policy: multiplePolicySchema.nullable(),
  /** Another question of the same type has the same stem. */
  duplicate: z.boolean(),
  /** How many exams have it as a fixed question. */
  examCount: z.number().int(),
  ...auditFields,
});
export type Question = z.infer<typeof questionSchema>;

export const QUESTION_SORT_FIELDS = ['id', 'type', 'difficulty', 'score', 'createTime', 'updateTime'] as const;

/** `GET api/questions`, `GET api/questions/download`. */
export const questionQuerySchema = pageQuerySchema.extend({
  sort: sortableBy(QUESTION_SORT_FIELDS),
  type: questionTypeSchema.optional(),
  difficulty: z.coerce.number(REQUIRED).int().min(1).max(5).optional(),
  /** A knowledge point's name; questions carrying it. */
  tag: z.string().trim().min(1).max(30).optional(),
  /** Part of the stem's text. */
  q: z.string().trim().max(100).optional(),
  /** Only the questions flagged as duplicates. */
  duplicate: queryFlagSchema.optional(),
  /** Leave these out (a picker: the questions already in the paper). */
  exclude: z
    .string()
    .regex(/^\d+(,\d+)*$/, 'expected ids separated by commas')
    .transform((text) => text.split(',').map(Number))
    // An id past the column's range is no question's; PostgreSQL would refuse to compare it (a 500).
    .refine((ids) => ids.every((id) => id >= 1 && id <= ID_MAX), `expected ids from 1 to ${ID_MAX}`)
    .optional(),
});
export type QuestionQuery = z.output<typeof questionQuerySchema>;

const tagName = z.string().trim().min(1, 'is required').max(30);
const scoreSchema = z
  .number()
  .positive()
  .max(MAX_QUESTION_SCORE)
  .refine((score) => Number.isInteger(Math.round(score * 100 * 1e6) / 1e6), 'has more than two decimals');

const questionFields = {
  type: questionTypeSchema,
  stem: z.string(REQUIRED).max(QUESTION_TEXT_MAX_LENGTH),
  options: z.array(optionSchema).max(MAX_OPTIONS).default([]),
  answer: answerSchema,
  blankRules: blankRulesSchema.nullish(),
  analysis: z.string().max(QUESTION_TEXT_MAX_LENGTH).default(''),
  difficulty: z.number().int().min(1).max(5).default(3),
  tags: z
    .array(tagName)
    .max(MAX_TAGS)
    .default([])
    .transform((tags) => [...new Set(tags)]),
  score: scoreSchema.default(1),
  policy: multiplePolicySchema.nullish(),
};

/**
 * A question's fields as the type asks: options only for choices (2–10, keys A, B, C… in order),
 * the key among the options, blank lists per blank, a policy only for multiple choice. The
 * output has `blankRules` and `policy` null where the type has none and their defaults where it does.
 */
function checkQuestion(question: z.output<typeof questionObject>, context: z.RefinementCtx): void {
  for (const issue of questionShapeIssues(question)) context.addIssue({ code: 'custom', path: [issue.field], message: issue.message });
}

function normaliseQuestion<Q extends z.output<typeof questionObject>>(question: Q) {
  return {
    ...question,
    options: (CHOICE_TYPES as readonly string[]).includes(question.type) ? question.options : [],
    blankRules: question.type === 'blank' ? (question.blankRules ?? DEFAULT_BLANK_RULES) : null,
    policy: question.type === 'multiple' ? (question.policy ?? 'all') : null,
  };
}

const questionObject = z.object(questionFields);
export const questionCreateSchema = questionObject.superRefine(checkQuestion).transform(normaliseQuestion);
export type QuestionCreate = z.output<typeof questionCreateSchema>;
export type QuestionCreateBody = z.input<typeof questionCreateSchema>;
export const questionUpdateSchema = z.object({ id: idSchema, ...questionFields }).superRefine(checkQuestion).transform(normaliseQuestion);
export type QuestionUpdate = z.output<typeof questionUpdateSchema>;

export type QuestionShapeIssue = { field: 'options' | 'answer' | 'stem'; message: string };

/**
 * What is wrong with a question's options and key for its type (empty when nothing): the one
 * rule the form, the API and the spreadsheet import apply.
 */
export function questionShapeIssues(question: { type: QuestionType; stem: string; options: readonly { key: string }[]; answer: QuestionAnswer }): QuestionShapeIssue[] {
  const issues: QuestionShapeIssue[] = [];
  if (plainTextOf(question.stem) === '' && !/<img\b/i.test(question.stem)) issues.push({ field: 'stem', message: 'is required' });
  const flat = question.answer.every((item) => typeof item === 'string') ? (question.answer as string[]) : null;
  const lists = question.answer.every((item) => Array.isArray(item)) ? (question.answer as string[][]) : null;
  switch (question.type) {
    case 'single':
    case 'multiple': {
      const keys = question.options.map((option) => option.key);
      if (keys.length < MIN_OPTIONS) issues.push({ field: 'options', message: `a choice question needs ${MIN_OPTIONS} to ${MAX_OPTIONS} options` });
      else if (keys.some((key, index) => key !== OPTION_KEYS[index])) issues.push({ field: 'options', message: 'options are keyed A, B, C… in order' });
      if (flat === null || flat.length === 0) issues.push({ field: 'answer', message: 'choose the right option' });
      else if (new Set(flat).size !== flat.length) issues.push({ field: 'answer', message: 'names an option twice' });
      else if (flat.some((key) => !keys.includes(key))) issues.push({ field: 'answer', message: `${flat.filter((key) => !keys.includes(key)).join(', ')} is not among the options` });
      else if (question.type === 'single' && flat.length !== 1) issues.push({ field: 'answer', message: 'a single-choice question has exactly one right option' });
      break;
    }
    case 'judge':
      if (flat === null || flat.length !== 1 || !(JUDGE_KEYS as readonly string[]).includes(flat[0] as string)) {
        issues.push({ field: 'answer', message: 'is T (true) or F (false)' });
      }
      break;
    case 'blank':
      if (lists === null || lists.length === 0 || lists.length > MAX_BLANKS) issues.push({ field: 'answer', message: `list the accepted answers of 1 to ${MAX_BLANKS} blanks` });
      else if (lists.some((accepted) => accepted.length === 0 || accepted.length > MAX_ALTERNATIVES || accepted.some((text) => text.trim() === '' || text.length > 200))) {
        issues.push({ field: 'answer', message: `each blank accepts 1 to ${MAX_ALTERNATIVES} answers of at most 200 characters` });
      }
      break;
    case 'short':
      if (flat === null || flat.length > 1 || (flat[0]?.length ?? 0) > QUESTION_TEXT_MAX_LENGTH) {
        issues.push({ field: 'answer', message: 'is at most one reference answer' });
      }
      break;
  }
  return issues;
}

/** An HTML fragment's text: tags dropped, the common entities decoded, white space collapsed. */
export function plainTextOf(html: string): string {
  return html
    .replace(/<(br|\/p|\/div|\/li|\/h\d)\b[^>]*>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** `GET api/questions/template?type=`: one type's sheet, or (without a type) the workbook with a sheet per type. */
export const questionTemplateQuerySchema = z.object({ type: questionTypeSchema.optional() });

/** `POST api/questions/import?dryRun=`. */
export const questionImportQuerySchema = z.object({ dryRun: queryFlagSchema.default(true) });

/** `POST api/questions/images` (multipart `file`: PNG, JPEG, GIF or WebP) → 201: put `url` in a stem or an analysis. */
export const questionImageSchema = z.object({ id: z.number().int(), url: z.string() });
export type QuestionImage = z.infer<typeof questionImageSchema>;

/** `GET api/questions/tags`: the knowledge points, with how many questions carry each. */
export const questionTagSchema = z.object({ name: z.string(), questionCount: z.number().int() });
export type QuestionTag = z.infer<typeof questionTagSchema>;
export const questionTagQuerySchema = z.object({ q: z.string().trim().max(30).optional() });
